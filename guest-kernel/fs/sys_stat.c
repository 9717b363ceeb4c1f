/*
 * Questions about names: stat and friends (Linux's x86-64 struct stat, statx),
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

#define STATX_BASIC_STATS 0x7ffu
#define STATX__RESERVED 0x80000000u
#define AT_STATX_SYNC_TYPE 0x6000

struct kstat {
	uint64_t dev, ino, nlink;
	uint32_t mode, uid, gid, pad0;
	uint64_t rdev;
	int64_t size, blksize, blocks;
	uint64_t atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
	int64_t reserved[3];
};
_Static_assert(sizeof(struct kstat) == 144, "struct stat of x86-64 Linux");

struct statx_time {
	int64_t sec;
	uint32_t nsec;
	int32_t reserved;
};

struct kstatx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct statx_time atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint32_t dio_mem_align, dio_offset_align;
	uint64_t spare[12];
};
_Static_assert(sizeof(struct kstatx) == 256, "struct statx of Linux");

static long stat_to_user(const struct inode *n, uint64_t ubuf)
{
	struct kstat st;

	memset(&st, 0, sizeof(st));
	st.dev = n->dev;
	st.ino = n->ino;
	st.nlink = n->nlink;
	st.mode = n->mode;
	st.uid = n->uid;
	st.gid = n->gid;
	st.rdev = n->rdev;
	st.size = (int64_t)n->size;
	st.blksize = 4096;
	st.blocks = (int64_t)((n->size + 511) / 512);
	st.atime = n->atime_ns / 1000000000ull;
	st.atime_nsec = n->atime_ns % 1000000000ull;
	st.mtime = n->mtime_ns / 1000000000ull;
	st.mtime_nsec = n->mtime_ns % 1000000000ull;
	st.ctime = n->ctime_ns / 1000000000ull;
	st.ctime_nsec = n->ctime_ns % 1000000000ull;
	return copy_to_user(ubuf, &st, sizeof(st));
}

static struct statx_time statx_time(uint64_t ns)
{
	return (struct statx_time){(int64_t)(ns / 1000000000ull), (uint32_t)(ns % 1000000000ull), 0};
}

/* Every basic field, whatever the mask asked (Linux may give more than asked); no birth time. */
static long statx_to_user(const struct inode *n, uint64_t ubuf)
{
	struct kstatx st;

	memset(&st, 0, sizeof(st));
	st.mask = STATX_BASIC_STATS;
	st.blksize = 4096;
	st.nlink = n->nlink;
	st.uid = n->uid;
	st.gid = n->gid;
	st.mode = (uint16_t)n->mode;
	st.ino = n->ino;
	st.size = n->size;
	st.blocks = (n->size + 511) / 512;
	st.atime = statx_time(n->atime_ns);
	st.mtime = statx_time(n->mtime_ns);
	st.ctime = statx_time(n->ctime_ns);
	st.rdev_major = n->rdev >> 8;
	st.rdev_minor = n->rdev & 0xff;
	st.dev_major = n->dev >> 8;
	st.dev_minor = n->dev & 0xff;
	return copy_to_user(ubuf, &st, sizeof(st));
}

/* The inode fstatat/statx name (AT_EMPTY_PATH: dirfd's own): 0 or -errno. */
static int stat_target(int64_t dirfd, uint64_t upath, uint64_t flags, struct inode **n)
{
	char path[PATH_MAX];
	int err = path_from_user(path, upath);

	return err ? err : path_inode_at(dirfd, path, flags, n);
}

static long do_stat(int64_t dirfd, uint64_t upath, uint64_t ubuf, uint64_t flags)
{
	struct inode *n;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	err = stat_target(dirfd, upath, flags, &n);
	return err ? err : stat_to_user(n, ubuf);
}

SYSCALL_DEFINE5(statx, int64_t, dfd, uint64_t, filename, uint64_t, flags, uint64_t, mask, uint64_t,
		buffer)
{
	struct inode *n;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT |
			     AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	err = stat_target(dfd, filename, flags, &n);
	return err ? err : statx_to_user(n, buffer);
}

SYSCALL_DEFINE2(stat, uint64_t, filename, uint64_t, statbuf)
{
	return do_stat(AT_FDCWD, filename, statbuf, 0);
}

SYSCALL_DEFINE2(lstat, uint64_t, filename, uint64_t, statbuf)
{
	return do_stat(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

SYSCALL_DEFINE2(fstat, int, fd, uint64_t, statbuf)
{
	struct file *f = fd_get(fd);

	return f ? stat_to_user(f->inode, statbuf) : -EBADF;
}

SYSCALL_DEFINE4(newfstatat, int64_t, dfd, uint64_t, filename, uint64_t, statbuf, uint64_t, flag)
{
	return do_stat(dfd, filename, statbuf, flag);
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

SYSCALL_DEFINE3(readlink, uint64_t, path, uint64_t, buf, uint64_t, bufsiz)
{
	return do_readlink(AT_FDCWD, path, buf, bufsiz);
}

SYSCALL_DEFINE4(readlinkat, int64_t, dfd, uint64_t, pathname, uint64_t, buf, uint64_t, bufsiz)
{
	return do_readlink(dfd, pathname, buf, bufsiz);
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

SYSCALL_DEFINE2(access, uint64_t, filename, uint64_t, mode)
{
	return do_access(AT_FDCWD, filename, mode, 0);
}

SYSCALL_DEFINE3(faccessat, int64_t, dfd, uint64_t, filename, uint64_t, mode)
{
	return do_access(dfd, filename, mode, 0);
}

SYSCALL_DEFINE4(faccessat2, int64_t, dfd, uint64_t, filename, uint64_t, mode, uint64_t, flags)
{
	return do_access(dfd, filename, mode, flags);
}
