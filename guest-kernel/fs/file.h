/*
 * Open files and the per-process descriptor table.
 */
#ifndef EL_FS_FILE_H
#define EL_FS_FILE_H

#include "fs/vfs.h"
#include "kernel.h"

/* Descriptors per table: Linux's default soft RLIMIT_NOFILE (the hard limit, here). */
#define FD_MAX 1024

/* open(2) flags (Linux x86-64 values). */
#define O_ACCMODE 03
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_EXCL 0200
#define O_NOCTTY 0400
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define O_TMPFILE (020000000 | O_DIRECTORY)

/* lseek's whence, and l_whence of a struct flock */
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3
#define SEEK_HOLE 4

/* ioctl: the bytes waiting to be read (a tty, a pipe, a socket) */
#define FIONREAD 0x541b

struct file {
	struct inode *inode;
	const struct file_ops *ops;
	uint64_t pos;
	uint32_t flags; /* O_ACCMODE | O_APPEND | O_NONBLOCK ... as opened */
	uint32_t refs;  /* descriptors sharing it (dup) */
	uint32_t version; /* pipes: the write opens seen at open (Linux f_version, for POLLHUP) */
	void *priv;
};

struct fd_table {
	struct file *fd[FD_MAX];
	uint8_t cloexec[FD_MAX];
};

static inline bool file_readable(const struct file *f)
{
	return (f->flags & O_ACCMODE) != O_WRONLY && !(f->flags & O_PATH);
}

static inline bool file_writable(const struct file *f)
{
	return (f->flags & O_ACCMODE) != O_RDONLY && !(f->flags & O_PATH);
}

/* A new open file on node (opens counted, ops->open called): the file or NULL/-errno in *err. */
struct file *file_open(struct inode *node, uint32_t flags, int *err);
void file_put(struct file *f);

/* The current process's descriptor bound: RLIMIT_NOFILE's soft limit, at most FD_MAX. */
unsigned fd_limit(void);
/* Lowest free descriptor >= min and below fd_limit() for f (taking the reference): fd or -EMFILE. */
int fd_install(struct fd_table *t, struct file *f, int min, bool cloexec);
/* The open file of fd in the current process, or NULL. */
struct file *fd_get(int fd);
/* Closes fd: 0 or -EBADF. */
int fd_close(struct fd_table *t, int fd);
void fd_close_all(struct fd_table *t);

#endif
