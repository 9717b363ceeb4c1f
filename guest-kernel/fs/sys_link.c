/*
 * Syscalls that add and move names: link, symlink, rename in their *at
 * forms, with Linux's checks in Linux's order.  The initrd's root and /tmp
 * are two file systems (st_dev 0:1 and 0:2): a hard link or a rename
 * between them is EXDEV; changes in the read-only root are EROFS.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define AT_SYMLINK_FOLLOW 0x400
#define RENAME_NOREPLACE 0x1
#define RENAME_EXCHANGE 0x2
#define RENAME_WHITEOUT 0x4

/* The last component is "." or "..". */
static bool dot_name(const struct lookup *l)
{
	return l->name[0] == '.' && (l->namelen == 1 || (l->namelen == 2 && l->name[1] == '.'));
}

static long do_link(int64_t olddirfd, uint64_t oldpath, int64_t newdirfd, uint64_t newpath,
		    uint64_t flags)
{
	char path[PATH_MAX];
	struct inode *start, *old;
	struct lookup l;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = path_from_user(path, oldpath);
	if (err)
		return err;
	if (!path[0] && (flags & AT_EMPTY_PATH)) {
		struct file *f = fd_get((int)olddirfd);

		if (!f)
			return -EBADF;
		old = f->inode;
	} else {
		err = path_start(olddirfd, &start);
		if (!err)
			err = vfs_lookup(start, path, flags & AT_SYMLINK_FOLLOW, &old);
		if (err)
			return err;
	}
	err = path_resolve_in(path, newdirfd, newpath, false, &l);
	if (err)
		return err;
	if (l.node)
		return -EEXIST;
	if (l.trailing_slash)
		return -ENOENT;
	if (l.dir->dev != old->dev)
		return -EXDEV;
	if (!(l.dir->flags & INODE_WRITABLE))
		return -EROFS;
	if (S_ISDIR(old->mode))
		return -EPERM;
	if (!old->nlink)
		return -ENOENT; /* unlinked, reached through a descriptor */
	return vfs_link(l.dir, l.name, l.namelen, old) ? 0 : -ENOSPC;
}

SYSCALL_DEFINE2(link, uint64_t, oldname, uint64_t, newname)
{
	return do_link(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

SYSCALL_DEFINE5(linkat, int64_t, olddfd, uint64_t, oldname, int64_t, newdfd, uint64_t, newname,
		uint64_t, flags)
{
	return do_link(olddfd, oldname, newdfd, newname, flags);
}

static long do_symlink(uint64_t utarget, int64_t newdirfd, uint64_t newpath)
{
	char path[PATH_MAX];
	struct lookup l;
	struct inode *n;
	char *copy;
	size_t len;
	int err = path_from_user(path, utarget);

	if (err)
		return err;
	if (!path[0])
		return -ENOENT;
	len = strlen(path);
	copy = kzalloc(len + 1);
	if (!copy)
		return -ENOSPC;
	memcpy(copy, path, len);
	err = path_resolve_in(path, newdirfd, newpath, false, &l);
	if (!err && l.node)
		err = -EEXIST;
	if (!err && !(l.dir->flags & INODE_WRITABLE))
		err = -EROFS;
	n = err ? 0 : vfs_create(l.dir, l.name, l.namelen, S_IFLNK | 0777);
	if (!n) {
		kfree(copy, len + 1);
		return err ? err : -ENOSPC;
	}
	n->data = (const uint8_t *)copy;
	n->size = len;
	return 0;
}

SYSCALL_DEFINE2(symlink, uint64_t, oldname, uint64_t, newname)
{
	return do_symlink(oldname, AT_FDCWD, newname);
}

SYSCALL_DEFINE3(symlinkat, uint64_t, oldname, int64_t, newdfd, uint64_t, newname)
{
	return do_symlink(oldname, newdfd, newname);
}

/* dir is node or lies below it. */
static bool inside(const struct inode *dir, const struct inode *node)
{
	for (;;) {
		if (dir == node)
			return true;
		if (dir == vfs_root || dir->parent == dir)
			return false;
		dir = dir->parent;
	}
}

/* May an entry of type `from` replace the existing `to`?  0 or -errno. */
static int replace_check(const struct inode *from, const struct inode *to)
{
	if (S_ISDIR(from->mode) && !S_ISDIR(to->mode))
		return -ENOTDIR;
	if (!S_ISDIR(from->mode) && S_ISDIR(to->mode))
		return -EISDIR;
	if (S_ISDIR(to->mode) && to->children)
		return -ENOTEMPTY;
	return 0;
}

static long do_rename(int64_t olddirfd, uint64_t oldpath, int64_t newdirfd, uint64_t newpath,
		      uint64_t flags)
{
	char path[PATH_MAX];
	struct lookup o, n;
	int err;

	if (flags & ~(uint64_t)(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)))
		return -EINVAL;
	if (flags & RENAME_WHITEOUT)
		return -EINVAL; /* overlay file systems' business */
	err = path_resolve_in(path, olddirfd, oldpath, false, &o);
	if (err)
		return err;
	if (dot_name(&o))
		return -EBUSY;
	/* The buffer is reused: o.name is gone, o.entry, o.node and o.dir stay. */
	err = path_resolve_in(path, newdirfd, newpath, false, &n);
	if (err)
		return err;
	if (dot_name(&n))
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	if (!o.node)
		return -ENOENT;
	if (o.dir->dev != n.dir->dev)
		return -EXDEV;
	if (!(o.dir->flags & INODE_WRITABLE) || !(n.dir->flags & INODE_WRITABLE))
		return -EROFS;
	if ((flags & RENAME_NOREPLACE) && n.node)
		return -EEXIST;
	if ((flags & RENAME_EXCHANGE) && !n.node)
		return -ENOENT;
	/* A trailing slash is for directories only (on the target too, unless exchanging). */
	if (!S_ISDIR(o.node->mode) &&
	    (o.trailing_slash ||
	     (n.trailing_slash && (!(flags & RENAME_EXCHANGE) || !S_ISDIR(n.node->mode)))))
		return -ENOTDIR;
	if ((flags & RENAME_EXCHANGE) && !S_ISDIR(n.node->mode) && o.trailing_slash)
		return -ENOTDIR;
	/* A directory cannot move below itself (nor, exchanged, the target below the source). */
	if (S_ISDIR(o.node->mode) && inside(n.dir, o.node))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && S_ISDIR(n.node->mode) && inside(o.dir, n.node))
		return -EINVAL;
	if (n.node == o.node)
		return 0; /* the same name, or two links of one inode: nothing to do */
	if (flags & RENAME_EXCHANGE) {
		vfs_exchange(o.entry, n.entry);
		return 0;
	}
	if (n.node) {
		err = replace_check(o.node, n.node);
		if (err)
			return err;
		/* The replaced name goes first: the new one takes its place. */
		if (vfs_move(o.entry, n.dir, n.name, n.namelen))
			return -ENOMEM;
		vfs_unlink(n.entry);
		return 0;
	}
	return vfs_move(o.entry, n.dir, n.name, n.namelen);
}

SYSCALL_DEFINE2(rename, uint64_t, oldname, uint64_t, newname)
{
	return do_rename(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

SYSCALL_DEFINE4(renameat, int64_t, olddfd, uint64_t, oldname, int64_t, newdfd, uint64_t, newname)
{
	return do_rename(olddfd, oldname, newdfd, newname, 0);
}

SYSCALL_DEFINE5(renameat2, int64_t, olddfd, uint64_t, oldname, int64_t, newdfd, uint64_t, newname,
		uint64_t, flags)
{
	return do_rename(olddfd, oldname, newdfd, newname, flags);
}
