/*
 * The console as a terminal (tty.c): the termios and window size a shell
 * reads and sets (stored; the console does no line discipline: output goes
 * to the host as written, input is end of file), the session it controls
 * and its foreground process group, and the job-control checks of a
 * background process (SIGTTIN on read, SIGTTOU on write with TOSTOP and
 * on changing the terminal), as Linux's tty_ioctl/tty_jobctrl have them.
 */
#ifndef EL_FS_TTY_H
#define EL_FS_TTY_H

#include "fs/file.h"
#include "kernel.h"

/* The console's session and foreground group (init's at boot; 0: none). */
void tty_console_set_session(int sid, int pgrp);
int tty_console_session(void);
int tty_console_pgrp(void);

/* ioctl on the console: 0 or the value, or -errno (-ENOTTY: not a terminal request). */
long tty_ioctl(struct file *f, uint64_t cmd, uint64_t arg);
/* A read (false) or write (true) of the console by current: 0 to go on, else -EIO or -ERESTARTSYS. */
long tty_check_io(bool write);

#endif
