/*
 * /dev: console (COM1), null and zero.
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
