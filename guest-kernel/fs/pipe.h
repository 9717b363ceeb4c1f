/*
 * Pipes (pipe.c): an anonymous FIFO inode with a read end and a write end,
 * each its own open file, sharing one ring buffer of Linux's default
 * capacity (16 pages).  Linux's semantics (pipe(7)): a read returns what is
 * there, or 0 once no write end is open; a write of at most PIPE_BUF bytes
 * goes in whole or not at all; a write with no read end open is SIGPIPE and
 * -EPIPE; O_NONBLOCK is -EAGAIN where a call would sleep; a sleep a signal
 * interrupts ends in what was moved or -ERESTARTSYS (SA_RESTART restarts).
 * Readiness as Linux's pipe_poll (fs/poll.h): POLLIN with data, POLLOUT with
 * room for PIPE_BUF bytes, POLLHUP on a read end once no writer is left,
 * POLLERR on a write end once no reader is.
 *
 * A FIFO (mknod S_IFIFO) is a named node whose ops are fifo_ops: its opens
 * share one pipe while any is open, as fifo(7): O_RDONLY waits for a writer
 * and O_WRONLY for a reader (-ERESTARTSYS if a signal comes first),
 * O_RDONLY|O_NONBLOCK opens at once, O_WRONLY|O_NONBLOCK with no reader is
 * -ENXIO, O_RDWR never waits.
 */
#ifndef EL_FS_PIPE_H
#define EL_FS_PIPE_H

#include "fs/file.h"

#define PIPE_BUF 4096            /* writes up to this size are atomic */
#define PIPE_DEF_SIZE 65536      /* the buffer: Linux's default, 16 pages */

/* The ops of a FIFO node (its open makes the file a pipe end). */
extern const struct file_ops fifo_ops;

/* A new pipe: 0 and its read and write ends (flags: O_NONBLOCK or 0), or -ENOMEM. */
int pipe_create(uint32_t flags, struct file **rd, struct file **wr);

/* f's pipe capacity in bytes (F_GETPIPE_SZ), or -EBADF if f is no pipe. */
long pipe_size(const struct file *f);

/*
 * F_SETPIPE_SZ: the buffer is not resized, so only a request Linux would
 * round to the present size succeeds (that size); -EINVAL past 2^31 as
 * Linux, -EPERM for any other size (as an unprivileged caller past
 * pipe-max-size is told), -EBADF if f is no pipe.
 */
long pipe_set_size(const struct file *f, uint64_t size);

/* Bytes waiting in f's pipe (FIONREAD), or -ENOTTY if f is no pipe. */
long pipe_unread(const struct file *f);

#endif
