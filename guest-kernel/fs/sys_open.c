/*
 * Syscalls that create, open and remove names.  Only INODE_WRITABLE
 * directories (/tmp) accept changes: elsewhere the answer is EROFS, as for a
 * read-only root.  Every create applies the caller's umask.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "fs/pipe.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

static int create_node(const struct lookup *l, uint32_t mode, struct inode **out)
{
	struct inode *n;

	if (!(l->dir->flags & INODE_WRITABLE))
		return -EROFS;
	n = vfs_create(l->dir, l->name, l->namelen, mode & ~current->umask);
	if (!n)
		return -ENOSPC;
	if (S_ISREG(mode))
		n->ops = &regfile_tmp_ops;
	*out = n;
	return 0;
}

/* Checks an existing node against the open flags; truncates with O_TRUNC. */
static int open_existing(struct inode *n, uint32_t flags)
{
	bool write = (flags & O_ACCMODE) != O_RDONLY;

	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if (flags & O_PATH)
		return 0;
	if (S_ISLNK(n->mode))
		return -ELOOP;
	if (S_ISSOCK(n->mode))
		return -ENXIO; /* a bound socket's name: connect to it, open does not */
	if ((flags & O_DIRECTORY) && !S_ISDIR(n->mode))
		return -ENOTDIR;
	if (S_ISDIR(n->mode) && (write || (flags & O_CREAT)))
		return -EISDIR;
	if (S_ISREG(n->mode) && (write || (flags & O_TRUNC)) && !(n->flags & INODE_WRITABLE))
		return -EROFS;
	if (S_ISREG(n->mode) && (flags & O_TRUNC) && write)
		return regfile_truncate(n, 0);
	return 0;
}

static long do_open(int64_t dirfd, uint64_t upath, uint32_t flags, uint32_t mode)
{
	char path[PATH_MAX];
	struct lookup l;
	struct file *f;
	int err, fd;

	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EOPNOTSUPP;
	err = path_resolve_in(path, dirfd, upath, !(flags & O_NOFOLLOW), &l);
	if (err)
		return err;
	if (!l.node) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		if (l.trailing_slash)
			return -EISDIR;
		err = create_node(&l, S_IFREG | (mode & 07777), &l.node);
	} else if (l.trailing_slash && !S_ISDIR(l.node->mode)) {
		err = -ENOTDIR;
	} else {
		err = open_existing(l.node, flags);
	}
	if (err)
		return err;
	f = file_open(l.node, flags & ~(uint32_t)(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC), &err);
	if (!f)
		return err;
	fd = fd_install(&current->files->t, f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}

SYSCALL_DEFINE3(open, uint64_t, filename, uint32_t, flags, uint32_t, mode)
{
	return do_open(AT_FDCWD, filename, flags, mode);
}

SYSCALL_DEFINE4(openat, int64_t, dfd, uint64_t, filename, uint32_t, flags, uint32_t, mode)
{
	return do_open(dfd, filename, flags, mode);
}

static long do_unlink(int64_t dirfd, uint64_t upath, uint64_t flags)
{
	struct lookup l;
	int err;

	if (flags & ~(uint64_t)AT_REMOVEDIR)
		return -EINVAL;
	err = path_resolve_user(dirfd, upath, false, &l);
	if (err)
		return err;
	if (!l.node)
		return -ENOENT;
	if (flags & AT_REMOVEDIR) {
		if (!S_ISDIR(l.node->mode))
			return -ENOTDIR;
		if (l.node == l.dir || l.node == vfs_root)
			return -EBUSY;
		if (l.node->children)
			return -ENOTEMPTY;
	} else if (S_ISDIR(l.node->mode)) {
		return -EISDIR;
	}
	if (!(l.dir->flags & INODE_WRITABLE) || !(l.entry->flags & INODE_WRITABLE))
		return -EROFS;
	vfs_unlink(l.entry);
	return 0;
}

SYSCALL_DEFINE1(unlink, uint64_t, pathname)
{
	return do_unlink(AT_FDCWD, pathname, 0);
}

SYSCALL_DEFINE3(unlinkat, int64_t, dfd, uint64_t, pathname, uint64_t, flag)
{
	return do_unlink(dfd, pathname, flag);
}

SYSCALL_DEFINE1(rmdir, uint64_t, pathname)
{
	return do_unlink(AT_FDCWD, pathname, AT_REMOVEDIR);
}

static long do_mkdir(int64_t dirfd, uint64_t upath, uint32_t mode)
{
	char path[PATH_MAX];
	struct lookup l;
	struct inode *n;
	int err = path_resolve_in(path, dirfd, upath, false, &l);

	if (err)
		return err;
	if (l.node)
		return -EEXIST;
	return create_node(&l, S_IFDIR | (mode & 07777), &n);
}

SYSCALL_DEFINE2(mkdir, uint64_t, pathname, uint32_t, mode)
{
	return do_mkdir(AT_FDCWD, pathname, mode);
}

SYSCALL_DEFINE3(mkdirat, int64_t, dfd, uint64_t, pathname, uint32_t, mode)
{
	return do_mkdir(dfd, pathname, mode);
}

/*
 * mknod(2), as Linux's may_mknod and vfs_mknod: a regular file (S_IFREG or
 * type 0) as open(O_CREAT|O_EXCL) makes it, a FIFO (fifo_ops, pipe.h) or a
 * socket node, the umask applied.  S_IFDIR is -EPERM (mkdir makes
 * directories), an unknown type -EINVAL, an existing name -EEXIST, a
 * trailing slash -ENOENT.  Device nodes (S_IFCHR, S_IFBLK) are refused with
 * -EPERM, as Linux refuses a caller without CAP_MKNOD: there are no drivers
 * to find by number here; /dev has the devices there are.
 */
static long do_mknod(int64_t dirfd, uint64_t upath, uint32_t mode)
{
	uint32_t type = mode & S_IFMT ? mode & S_IFMT : S_IFREG;
	char path[PATH_MAX];
	struct lookup l;
	struct inode *n;
	int err;

	if (type == S_IFDIR || type == S_IFCHR || type == S_IFBLK)
		return -EPERM;
	if (type != S_IFREG && type != S_IFIFO && type != S_IFSOCK)
		return -EINVAL;
	err = path_resolve_in(path, dirfd, upath, false, &l);
	if (err)
		return err;
	if (l.node)
		return -EEXIST;
	if (l.trailing_slash)
		return -ENOENT;
	err = create_node(&l, type | (mode & 07777), &n);
	if (!err && type == S_IFIFO)
		n->ops = &fifo_ops;
	return err;
}

SYSCALL_DEFINE2(mknod, uint64_t, filename, uint32_t, mode)
{
	return do_mknod(AT_FDCWD, filename, mode);
}

SYSCALL_DEFINE3(mknodat, int64_t, dfd, uint64_t, filename, uint32_t, mode)
{
	return do_mknod(dfd, filename, mode);
}
