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
SYSCALL_DEFINE3(ioctl, int, fd, uint64_t, cmd, uint64_t, arg)
{
	struct file *f = fd_get(fd);
	long n;

	if (!f)
		return -EBADF;
	if (f->ops && f->ops->ioctl && !(f->flags & O_PATH) &&
	    (n = f->ops->ioctl(f, cmd, arg)) != -ENOTTY)
		return n;
	if (cmd != FIONREAD)
		return -ENOTTY;
	n = unix_of(f) ? unix_unread(f) : pipe_unread(f);
	if (n < 0)
		return n;
	return copy_to_user(arg, &(int){(int)n}, sizeof(int));
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

SYSCALL_DEFINE3(fcntl, int, fd, uint64_t, cmd, uint64_t, arg)
{
	struct fd_table *t = &current->files->t;
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= fd_limit())
			return -EINVAL;
		return dup_from(f, (int)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return t->cloexec[fd] ? FD_CLOEXEC : 0;
	case F_SETFD:
		t->cloexec[fd] = (arg & FD_CLOEXEC) != 0;
		return 0;
	case F_GETFL:
		return f->flags;
	case F_SETFL:
		f->flags = (f->flags & ~(uint32_t)(O_APPEND | O_NONBLOCK)) |
			   ((uint32_t)arg & (O_APPEND | O_NONBLOCK));
		return 0;
	case F_GETLK ... F_SETLKW:
	case F_OFD_GETLK ... F_OFD_SETLKW:
		return lock_fcntl(f, (unsigned)cmd, arg);
	case F_GETPIPE_SZ:
		return pipe_size(f);
	case F_SETPIPE_SZ:
		return pipe_set_size(f, arg);
	default:
		return -EINVAL;
	}
}

SYSCALL_DEFINE1(close, int, fd)
{
	return fd_close(&current->files->t, fd);
}

SYSCALL_DEFINE1(dup, int, fildes)
{
	struct file *f = fd_get(fildes);

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

SYSCALL_DEFINE2(dup2, uint64_t, oldfd, uint64_t, newfd)
{
	if (oldfd == newfd)
		return fd_get((int)oldfd) ? (long)oldfd : -EBADF;
	return dup_to(oldfd, newfd, false);
}

SYSCALL_DEFINE3(dup3, uint64_t, oldfd, uint64_t, newfd, uint64_t, flags)
{
	if (oldfd == newfd || (flags & ~(uint64_t)O_CLOEXEC))
		return -EINVAL;
	return dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

SYSCALL_DEFINE2(ftruncate, int, fd, int64_t, length)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (!S_ISREG(f->inode->mode) || !file_writable(f))
		return -EINVAL;
	if (length < 0)
		return -EINVAL;
	if (!(f->inode->flags & INODE_WRITABLE))
		return -EROFS;
	return regfile_truncate(f->inode, length);
}

SYSCALL_DEFINE2(flock, int, fd, unsigned, cmd)
{
	struct file *f = fd_get(fd);

	return f ? lock_flock(f, cmd) : -EBADF;
}
