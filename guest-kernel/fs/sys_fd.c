/*
 * Syscalls on the descriptor table and open-file state: ioctl, fcntl,
 * close, dup, dup2, dup3, ftruncate, flock; the pipe fcntls, the lock
 * fcntls (fs/lock.c) and FIONREAD.
 */
#include "fs/file.h"
#include "fs/lock.h"
#include "fs/pipe.h"
#include "fs/unix_sock.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#define FD_CLOEXEC 1

/*
 * The file's own requests first (the console's terminal ones: fs/tty.c);
 * else FIONREAD on a pipe or a socket, the bytes waiting (an int, as Linux
 * writes it; a datagram socket's next message, -EINVAL on a listener);
 * anything else is "not a tty".
 */
SYSCALL(ioctl)
{
	struct file *f = fd_get((int)a0);
	long n;

	(void)a3, (void)a4, (void)a5;
	if (!f)
		return -EBADF;
	if (f->ops && f->ops->ioctl && !(f->flags & O_PATH) &&
	    (n = f->ops->ioctl(f, a1, a2)) != -ENOTTY)
		return n;
	if (a1 != FIONREAD)
		return -ENOTTY;
	n = unix_of(f) ? unix_unread(f) : pipe_unread(f);
	if (n < 0)
		return n;
	return copy_to_user(a2, &(int){(int)n}, sizeof(int));
}

static long dup_from(struct file *f, int min, bool cloexec)
{
	int fd;

	f->refs++;
	fd = fd_install(&current->files->t, f, min, cloexec);
	if (fd < 0)
		f->refs--;
	return fd;
}

SYSCALL(fcntl)
{
	struct fd_table *t = &current->files->t;
	struct file *f = fd_get((int)a0);

	(void)a3, (void)a4, (void)a5;
	if (!f)
		return -EBADF;
	switch (a1) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (a2 >= fd_limit())
			return -EINVAL;
		return dup_from(f, (int)a2, a1 == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return t->cloexec[a0] ? FD_CLOEXEC : 0;
	case F_SETFD:
		t->cloexec[a0] = (a2 & FD_CLOEXEC) != 0;
		return 0;
	case F_GETFL:
		return f->flags;
	case F_SETFL:
		f->flags = (f->flags & ~(uint32_t)(O_APPEND | O_NONBLOCK)) |
			   ((uint32_t)a2 & (O_APPEND | O_NONBLOCK));
		return 0;
	case F_GETLK ... F_SETLKW:
	case F_OFD_GETLK ... F_OFD_SETLKW:
		return lock_fcntl(f, (unsigned)a1, a2);
	case F_GETPIPE_SZ:
		return pipe_size(f);
	case F_SETPIPE_SZ:
		return pipe_set_size(f, a2);
	default:
		return -EINVAL;
	}
}

SYSCALL(close)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return fd_close(&current->files->t, (int)a0);
}

SYSCALL(dup)
{
	struct file *f = fd_get((int)a0);

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return f ? dup_from(f, 0, false) : -EBADF;
}

static long dup_to(uint64_t oldfd, uint64_t newfd, bool cloexec)
{
	struct fd_table *t = &current->files->t;
	struct file *f = fd_get((int)oldfd);

	if (!f)
		return -EBADF;
	if (newfd >= fd_limit())
		return -EBADF;
	if (t->fd[newfd] == f) {
		t->cloexec[newfd] = cloexec;
		return (long)newfd;
	}
	f->refs++;
	fd_close(t, (int)newfd);
	t->fd[newfd] = f;
	t->cloexec[newfd] = cloexec;
	return (long)newfd;
}

SYSCALL(dup2)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 == a1)
		return fd_get((int)a0) ? (long)a0 : -EBADF;
	return dup_to(a0, a1, false);
}

SYSCALL(dup3)
{
	(void)a3, (void)a4, (void)a5;
	if (a0 == a1 || (a2 & ~(uint64_t)O_CLOEXEC))
		return -EINVAL;
	return dup_to(a0, a1, a2 & O_CLOEXEC);
}

SYSCALL(ftruncate)
{
	struct file *f = fd_get((int)a0);

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (!f)
		return -EBADF;
	if (!S_ISREG(f->inode->mode) || !file_writable(f))
		return -EINVAL;
	if ((int64_t)a1 < 0)
		return -EINVAL;
	if (!(f->inode->flags & INODE_WRITABLE))
		return -EROFS;
	return regfile_truncate(f->inode, a1);
}

SYSCALL(flock)
{
	struct file *f = fd_get((int)a0);

	(void)a2, (void)a3, (void)a4, (void)a5;
	return f ? lock_flock(f, (unsigned)a1) : -EBADF;
}
