/*
 * /proc, to Linux's formats (proc(5)): the system files (meminfo, uptime,
 * loadavg, stat, cpuinfo, mounts, filesystems, version, sys/kernel/...),
 * self and thread-self (links resolved per caller), and a directory per
 * process, listed by getdents and gone once the process is reaped.
 */
#ifndef EL_FS_PROCFS_H
#define EL_FS_PROCFS_H

#include "fs/vfs.h"

void procfs_init(struct inode *proc);

#endif
