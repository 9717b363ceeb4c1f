/*
 * filecheck: file operations and devices as Linux has them.
 * One file per area, each a function main calls in its own fresh
 * directory under /tmp:
 *   filecheck_attr.c   umask, chmod, chown, timestamps, stat and statx
 *   filecheck_names.c  link, symlink, readlink, rename(at2), truncate, statfs, sync
 *   filecheck_dev.c    /dev: null, zero, full, random, urandom, tty, the fd links, shm
 *   filecheck_shm.c    MAP_SHARED of a /dev/shm file across fork, POSIX shm and
 *                      semaphores, System V shared memory
 *   filecheck_lock.c   fcntl record locks (POSIX and OFD) and flock
 * Runs on a Linux host too (as root: chown gives files away).
 */
#ifndef EL_FILECHECK_H
#define EL_FILECHECK_H

#include <stdbool.h>
#include <sys/types.h>

#include "check.h"

void filecheck_attr(void);
void filecheck_names(void);
void filecheck_dev(void);
void filecheck_shm(void);
void filecheck_lock(void);

/* Writes s to a new file name (mode 0644): true when it all went. */
bool fc_write_file(const char *name, const char *s);
/* The file's first len bytes NUL-terminated in buf (size len + 1): bytes read or -1. */
long fc_read_file(const char *name, char *buf, size_t len);
/* Waits for pid: its wait status, -1 when wait fails. */
int fc_wait(pid_t pid);
/* Sleeps ms milliseconds (restarting after signals). */
void fc_sleep_ms(long ms);

#endif
