/*
 * Open files and descriptor tables (file.h).
 */
#include "fs/epoll.h"
#include "fs/file.h"
#include "fs/lock.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "proc/rlimit.h"
#include "sys/errno.h"

struct file *file_open(struct inode *node, uint32_t flags, int *err)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f) {
		*err = -ENOMEM;
		return 0;
	}
	f->inode = node;
	f->ops = node->ops;
	f->flags = flags;
	f->refs = 1;
	node->opens++;
	if (f->ops && f->ops->open && !(flags & O_PATH)) {
		*err = f->ops->open(f);
		if (*err) {
			file_put(f);
			return 0;
		}
	}
	*err = 0;
	return f;
}

void file_put(struct file *f)
{
	if (--f->refs)
		return;
	lock_release_file(f);
	epoll_file_gone(f);
	if (f->ops && f->ops->release && !(f->flags & O_PATH))
		f->ops->release(f);
	f->inode->opens--;
	vfs_release(f->inode);
	kfree(f, sizeof(*f));
}

unsigned fd_limit(void)
{
	uint64_t n = rlimit_cur(current, RLIMIT_NOFILE);

	return n < FD_MAX ? (unsigned)n : FD_MAX;
}

int fd_install(struct fd_table *t, struct file *f, int min, bool cloexec)
{
	int fd, limit = (int)fd_limit();

	for (fd = min < 0 ? 0 : min; fd < limit; fd++) {
		if (!t->fd[fd]) {
			t->fd[fd] = f;
			t->cloexec[fd] = cloexec;
			return fd;
		}
	}
	return -EMFILE;
}

struct file *fd_get(int fd)
{
	if ((unsigned)fd >= FD_MAX)
		return 0;
	return current->files->t.fd[fd];
}

int fd_close(struct fd_table *t, int fd)
{
	struct file *f;

	if ((unsigned)fd >= FD_MAX || !(f = t->fd[fd]))
		return -EBADF;
	t->fd[fd] = 0;
	lock_close(f, t);
	file_put(f);
	return 0;
}

void fd_close_all(struct fd_table *t)
{
	int fd;

	for (fd = 0; fd < FD_MAX; fd++)
		if (t->fd[fd])
			fd_close(t, fd);
}
