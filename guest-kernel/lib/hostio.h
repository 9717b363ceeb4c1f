/*
 * The kernel console and the user program's stdout and stderr, to the VMM
 * in one hypercall per write (EL_HC_WRITE) instead of one COM1 exit per
 * byte; to COM1 when no entrylab VMM answers the probe (QEMU -kernel).
 */
#ifndef EL_HOSTIO_H
#define EL_HOSTIO_H

#include "kernel.h"

/* True once hostio_init() found an entrylab VMM. */
extern bool hostio_present;

/* First thing at boot: asks whether hypercalls reach an entrylab VMM. */
void hostio_init(void);
/*
 * Writes len bytes of kernel memory as fd EL_WRITE_CONSOLE, 1 or 2, after
 * flushing the console buffer (console.h).
 */
void hostio_write(unsigned fd, const char *buf, size_t len);
/*
 * The console stream (console.c, with hostio_present): appended to the
 * buffer, sent when it is full (EL_WRITE_MAX) and at hostio_flush().
 */
void hostio_console(const char *s, size_t len);
/* Sends the console bytes waiting, if any (one EL_HC_WRITE). */
void hostio_flush(void);

#endif
