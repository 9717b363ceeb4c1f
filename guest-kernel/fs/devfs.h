/*
 * /dev: console (COM1) and tty (the same: every process's controlling
 * terminal), null, zero, full, random and urandom (the kernel's
 * generator), the links fd, stdin, stdout and stderr into /proc/self/fd,
 * and shm, a writable tmpfs directory (sticky, 1777) for POSIX shared
 * memory and named semaphores.
 */
#ifndef EL_FS_DEVFS_H
#define EL_FS_DEVFS_H

#include "fs/vfs.h"

/* The console node: descriptors 0, 1 and 2 of init. */
extern struct inode *dev_console;

/* file->priv of init's descriptor 2: its writes are the program's stderr. */
#define DEVFS_STDERR ((void *)2)

void devfs_init(struct inode *dev);

#endif
