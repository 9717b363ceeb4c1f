/*
 * truncate(2) by name and fallocate(2) mode 0: a /tmp file's size, as
 * ftruncate (fs/sys_fd.c) sets it through a descriptor.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

#define FALLOC_FL_KEEP_SIZE 0x01

SYSCALL_DEFINE2(truncate, uint64_t, upath, int64_t, length)
{
	char path[PATH_MAX];
	struct inode *n;
	int err = path_from_user(path, upath);

	if (!err)
		err = vfs_lookup(current->cwd, path, true, &n);
	if (err)
		return err;
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (!S_ISREG(n->mode) || length < 0)
		return -EINVAL;
	if (!(n->flags & INODE_WRITABLE))
		return -EROFS;
	return regfile_truncate(n, length);
}

/*
 * Mode 0 and FALLOC_FL_KEEP_SIZE: the range reads as it did (holes read as
 * zeros either way; pages come at the first write), the size grows to
 * offset + len unless kept.  Other modes (punching holes, ...) are
 * EOPNOTSUPP, as on a file system without them.
 */
SYSCALL_DEFINE4(fallocate, int, fd, uint64_t, mode, int64_t, off, int64_t, len)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	if (off < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~(uint64_t)FALLOC_FL_KEEP_SIZE)
		return -EOPNOTSUPP;
	if (!file_writable(f))
		return -EBADF;
	if (S_ISDIR(f->inode->mode))
		return -EISDIR;
	if (!S_ISREG(f->inode->mode))
		return -ENODEV;
	if (!(f->inode->flags & INODE_WRITABLE))
		return -EROFS;
	if (off > INT64_MAX - len)
		return -EFBIG;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && (uint64_t)(off + len) > f->inode->size)
		return regfile_truncate(f->inode, (uint64_t)(off + len));
	return 0;
}
