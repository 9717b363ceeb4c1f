/*
 * Path arguments of syscalls (path.h): copying them in, where relative ones
 * start, and resolving them.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/uaccess.h"

int path_from_user(char *buf, uint64_t upath)
{
	long n = strncpy_from_user(buf, upath, PATH_MAX);

	return n < 0 ? (int)n : 0;
}

int path_start(int64_t dirfd, struct inode **start)
{
	struct file *f;

	if ((int)dirfd == AT_FDCWD) {
		*start = current->cwd;
		return 0;
	}
	f = fd_get((int)dirfd);
	if (!f)
		return -EBADF;
	if (!S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	*start = f->inode;
	return 0;
}

int path_inode_at(int64_t dirfd, const char *path, uint64_t flags, struct inode **n)
{
	struct inode *start;
	struct file *f;
	int err;

	if (path[0]) {
		err = path_start(dirfd, &start);
		return err ? err : vfs_lookup(start, path, !(flags & AT_SYMLINK_NOFOLLOW), n);
	}
	if (!(flags & AT_EMPTY_PATH))
		return -ENOENT;
	if ((int)dirfd == AT_FDCWD) {
		*n = current->cwd;
		return 0;
	}
	f = fd_get((int)dirfd);
	if (!f)
		return -EBADF;
	*n = f->inode;
	return 0;
}

int path_resolve_in(char *buf, int64_t dirfd, uint64_t upath, bool follow, struct lookup *l)
{
	struct inode *start;
	int err = path_from_user(buf, upath);

	if (!err)
		err = path_start(dirfd, &start);
	return err ? err : vfs_resolve(start, buf, follow, l);
}

int path_resolve_user(int64_t dirfd, uint64_t upath, bool follow, struct lookup *l)
{
	char path[PATH_MAX];

	return path_resolve_in(path, dirfd, upath, follow, l);
}

