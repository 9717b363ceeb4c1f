/*
 * Questions about names: stat and friends (Linux's x86-64 struct stat),
 * readlink, access.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

struct kstat {
	uint64_t dev, ino, nlink;
	uint32_t mode, uid, gid, pad0;
	uint64_t rdev;
	int64_t size, blksize, blocks;
	uint64_t atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
	int64_t reserved[3];
};
_Static_assert(sizeof(struct kstat) == 144, "struct stat of x86-64 Linux");

static long stat_to_user(const struct inode *n, uint64_t ubuf)
{
	struct kstat st;
	uint64_t sec = n->mtime_ns / 1000000000ull, nsec = n->mtime_ns % 1000000000ull;

	memset(&st, 0, sizeof(st));
	st.dev = n->dev;
	st.ino = n->ino;
	st.nlink = n->nlink;
	st.mode = n->mode;
	st.rdev = n->rdev;
	st.size = (int64_t)n->size;
	st.blksize = 4096;
	st.blocks = (int64_t)((n->size + 511) / 512);
	st.atime = st.mtime = st.ctime = sec;
	st.atime_nsec = st.mtime_nsec = st.ctime_nsec = nsec;
	return copy_to_user(ubuf, &st, sizeof(st));
}

static long do_stat(int64_t dirfd, uint64_t upath, uint64_t ubuf, uint64_t flags)
{
	char path[PATH_MAX];
	struct inode *start, *n;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	err = path_from_user(path, upath);
	if (err)
		return err;
	if (!path[0]) {
		struct file *f;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if ((int)dirfd == AT_FDCWD)
			return stat_to_user(current->cwd, ubuf);
		f = fd_get((int)dirfd);
		return f ? stat_to_user(f->inode, ubuf) : -EBADF;
	}
	err = path_start(dirfd, &start);
	if (!err)
		err = vfs_lookup(start, path, !(flags & AT_SYMLINK_NOFOLLOW), &n);
	return err ? err : stat_to_user(n, ubuf);
}

SYSCALL(stat)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return do_stat(AT_FDCWD, a0, a1, 0);
}

SYSCALL(lstat)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return do_stat(AT_FDCWD, a0, a1, AT_SYMLINK_NOFOLLOW);
}

SYSCALL(fstat)
{
	struct file *f = fd_get((int)a0);

	(void)a2, (void)a3, (void)a4, (void)a5;
	return f ? stat_to_user(f->inode, a1) : -EBADF;
}

SYSCALL(newfstatat)
{
	(void)a4, (void)a5;
	return do_stat((int64_t)a0, a1, a2, a3);
}

static long do_readlink(int64_t dirfd, uint64_t upath, uint64_t ubuf, uint64_t size)
{
	char target[PATH_MAX];
	struct lookup l;
	long len;
	int err;

	if ((int64_t)size <= 0)
		return -EINVAL;
	err = path_resolve_user(dirfd, upath, false, &l);
	if (err)
		return err;
	if (!l.node)
		return -ENOENT;
	if (!S_ISLNK(l.node->mode))
		return -EINVAL;
	len = vfs_readlink(l.node, target, sizeof(target));
	if (len < 0)
		return len;
	if (size > (uint64_t)len)
		size = (uint64_t)len;
	return copy_to_user(ubuf, target, size) ?: (long)size;
}

SYSCALL(readlink)
{
	(void)a3, (void)a4, (void)a5;
	return do_readlink(AT_FDCWD, a0, a1, a2);
}

SYSCALL(readlinkat)
{
	(void)a4, (void)a5;
	return do_readlink((int64_t)a0, a1, a2, a3);
}

static long do_access(int64_t dirfd, uint64_t upath, uint64_t mode, uint64_t flags)
{
	struct lookup l;
	int err;

	if (mode & ~(uint64_t)(X_OK | W_OK | R_OK) ||
	    flags & ~(uint64_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = path_resolve_user(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &l);
	if (err)
		return err;
	if (!l.node)
		return -ENOENT;
	if ((mode & W_OK) && !(l.node->flags & INODE_WRITABLE) && !S_ISCHR(l.node->mode))
		return -EROFS;
	if ((mode & X_OK) && !S_ISDIR(l.node->mode) && !(l.node->mode & 0111))
		return -EACCES;
	return 0;
}

SYSCALL(access)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return do_access(AT_FDCWD, a0, a1, 0);
}

SYSCALL(faccessat)
{
	(void)a3, (void)a4, (void)a5;
	return do_access((int64_t)a0, a1, a2, 0);
}

SYSCALL(faccessat2)
{
	(void)a4, (void)a5;
	return do_access((int64_t)a0, a1, a2, a3);
}
