/*
 * /proc/self: maps and smaps (the current address space's areas in Linux's
 * format), status (the current task, the common lines) and exe
 * (a link to the running program).
 */
#ifndef EL_FS_PROCFS_H
#define EL_FS_PROCFS_H

#include "fs/vfs.h"

void procfs_init(struct inode *proc);
/* exec: /proc/self/exe now names path (kept by the caller). */
void procfs_set_exe(const char *path);

#endif
