/*
 * Directory syscalls: listing (getdents64), the working directory.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define DT_CHR 2
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12

static uint8_t dirent_type(uint32_t mode)
{
	if (S_ISDIR(mode))
		return DT_DIR;
	if (S_ISLNK(mode))
		return DT_LNK;
	if (S_ISSOCK(mode))
		return DT_SOCK;
	return S_ISCHR(mode) ? DT_CHR : DT_REG;
}

/* Entry i of a directory listing: ".", "..", then the children. */
static const struct inode *dir_entry(struct inode *dir, uint64_t i, const char **name, size_t *len)
{
	const struct inode *c;

	if (i < 2) {
		*name = i ? ".." : ".";
		*len = i + 1;
		return i ? dir->parent : dir;
	}
	if (dir->ops && dir->ops->entry)
		c = dir->ops->entry(dir, i - 2);
	else
		for (c = dir->children, i -= 2; c && i; c = c->next, i--)
			;
	if (c) {
		*name = c->name;
		*len = c->namelen;
	}
	return c;
}

SYSCALL_DEFINE3(getdents64, int, fd, uint64_t, dirent, uint64_t, count)
{
	struct file *f = fd_get(fd);
	uint8_t rec[24 + NAME_MAX + 1];
	uint64_t done = 0;

	if (!f)
		return -EBADF;
	if (!S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	for (;;) {
		const char *name;
		size_t len, reclen;
		const struct inode *n = dir_entry(f->inode, f->pos, &name, &len);
		uint64_t ino, off = f->pos + 1;
		uint16_t rl;

		if (!n)
			break;
		reclen = ALIGN_UP(19 + len + 1, 8);
		if (done + reclen > count)
			return done ? (long)done : -EINVAL;
		memset(rec, 0, reclen);
		ino = n->ino;
		rl = (uint16_t)reclen;
		memcpy(rec, &ino, 8);
		memcpy(rec + 8, &off, 8);
		memcpy(rec + 16, &rl, 2);
		rec[18] = dirent_type(n->mode);
		memcpy(rec + 19, name, len);
		if (copy_to_user(dirent + done, rec, reclen))
			return done ? (long)done : -EFAULT;
		done += reclen;
		f->pos++;
	}
	return (long)done;
}

SYSCALL_DEFINE2(getcwd, uint64_t, buf, uint64_t, size)
{
	char path[PATH_MAX];
	long len = vfs_path(current->cwd, path, sizeof(path));

	if (len < 0)
		return len;
	if ((uint64_t)len + 1 > size)
		return -ERANGE;
	return copy_to_user(buf, path, (size_t)len + 1) ?: len + 1;
}

SYSCALL_DEFINE1(chdir, uint64_t, filename)
{
	char path[PATH_MAX];
	struct inode *n;
	int err = path_from_user(path, filename);

	if (!err)
		err = vfs_lookup(current->cwd, path, true, &n);
	if (err)
		return err;
	if (!S_ISDIR(n->mode))
		return -ENOTDIR;
	current->cwd = n;
	return 0;
}

