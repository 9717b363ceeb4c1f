/*
 * mknod(2) and mknodat(2), as Linux's may_mknod and vfs_mknod: a regular
 * file (S_IFREG or type 0), a FIFO (fifo_ops, pipe.h) or a socket node;
 * S_IFDIR is -EPERM (mkdir makes directories), an unknown type -EINVAL, an
 * existing name -EEXIST (a trailing slash included), a name outside /tmp
 * -EROFS.  Device nodes (S_IFCHR, S_IFBLK) are refused with -EPERM, as
 * Linux refuses a caller without CAP_MKNOD: there are no drivers to find by
 * number here, /dev has the devices there are.
 */
#include "fs/path.h"
#include "fs/pipe.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

#define S_IFBLK 0060000
#define S_IFSOCK 0140000

static long do_mknod(int64_t dirfd, uint64_t upath, uint32_t mode)
{
	uint32_t type = mode & S_IFMT;
	struct lookup l;
	struct inode *n;
	int err;

	if (!type)
		type = S_IFREG;
	if (type == S_IFDIR || type == S_IFCHR || type == S_IFBLK)
		return -EPERM;
	if (type != S_IFREG && type != S_IFIFO && type != S_IFSOCK)
		return -EINVAL;
	err = path_resolve_user(dirfd, upath, false, &l);
	if (err)
		return err;
	if (l.node)
		return -EEXIST;
	if (l.trailing_slash)
		return -ENOENT; /* Linux: a trailing slash names a directory, which mknod cannot make */
	if (!(l.dir->flags & INODE_WRITABLE))
		return -EROFS;
	n = vfs_create(l.dir, l.name, l.namelen, type | (mode & 07777));
	if (!n)
		return -ENOSPC;
	if (type == S_IFREG)
		n->ops = &regfile_tmp_ops;
	else if (type == S_IFIFO)
		n->ops = &fifo_ops;
	return 0;
}

SYSCALL(mknod)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return do_mknod(AT_FDCWD, a0, (uint32_t)a1);
}

SYSCALL(mknodat)
{
	(void)a3, (void)a4, (void)a5;
	return do_mknod((int64_t)a0, a1, (uint32_t)a2);
}
