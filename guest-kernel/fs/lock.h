/*
 * File locks (lock.c), Linux's three kinds on one list per inode:
 *   POSIX record locks  fcntl F_GETLK/F_SETLK/F_SETLKW; owned by the file
 *                       table (a process: its threads share it), released
 *                       by any close of the file through that table and so
 *                       at exit; EDEADLK when a wait would close a cycle
 *   OFD record locks    F_OFD_GETLK/SETLK/SETLKW; owned by the open file,
 *                       released when its last descriptor closes
 *   flock(2)            whole-file, owned by the open file, released
 *                       likewise; never conflicts with the record locks
 * Waits sleep on the inode and end with a signal (-ERESTARTSYS).
 */
#ifndef EL_FS_LOCK_H
#define EL_FS_LOCK_H

#include "fs/file.h"

/* fcntl's lock commands and struct flock's l_type (Linux include/uapi/asm-generic/fcntl.h) */
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2

/* fcntl's lock commands (cmd F_GETLK..F_OFD_SETLKW, uflock a struct flock): 0 or -errno. */
long lock_fcntl(struct file *f, unsigned cmd, uint64_t uflock);

/* flock(2) on f: 0 or -errno. */
long lock_flock(struct file *f, unsigned op);

/* fd_close: the table (owner) closes a descriptor of f: its POSIX locks on the file go. */
void lock_close(struct file *f, const void *table);

/* file_put: f's last descriptor is gone: its OFD locks and flock go. */
void lock_release_file(struct file *f);

#endif
