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

SYSCALL(statx)
{
	struct inode *n;
	int err;

	(void)a5;
	if (a2 & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT |
			     AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((a2 & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (a3 & STATX__RESERVED))
		return -EINVAL;
	err = stat_target((int64_t)a0, a1, a2, &n);
	return err ? err : statx_to_user(n, a4);
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
