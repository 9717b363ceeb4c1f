/*
 * /proc/PID's links and descriptor directories: exe (the program exec
 * loaded, kept by the address space, so a re-exec through /proc/self/exe
 * finds the file, never the link), cwd, root, fd/N and fdinfo/N.  The
 * links are Linux's "magic" ones: following them reaches the node itself,
 * not a lookup of their text.  fd/N reads "pipe:[INO]", "socket:[INO]" or
 * "anon_inode:[NAME]" for files outside the tree, as Linux does.
 */
#include "fs/procfs_priv.h"
#include "fs/vfs.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"

static long path_text(const struct inode *n, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	long len = vfs_path(n, buf, size);

	if (len >= 0 && !n->nlink && (size_t)len + sizeof(deleted) <= size) {
		memcpy(buf + len, deleted, sizeof(deleted));
		len += (long)sizeof(deleted) - 1;
	}
	return len;
}

/* Outside the tree: pipes, sockets, epoll and the like (no parent). */
static bool anonymous(const struct inode *n)
{
	return !n->parent;
}

static long file_text(const struct inode *n, char *buf, size_t size)
{
	size_t len;

	if (!anonymous(n))
		return path_text(n, buf, size);
	if ((n->mode & S_IFMT) == S_IFIFO)
		len = ksnprintf(buf, size, "pipe:[%u]", n->ino);
	else if ((n->mode & S_IFMT) == S_IFSOCK)
		len = ksnprintf(buf, size, "socket:[%u]", n->ino);
	else
		len = ksnprintf(buf, size, "anon_inode:%.*s", (int)n->namelen,
				n->namelen ? n->name : "[unknown]");
	return len < size ? (long)len : -ENAMETOOLONG;
}

/* ---- exe, cwd, root ---------------------------------------------------- */

static struct inode *exe_node(struct inode *link)
{
	const struct task *t = proc_node_task(link);

	return t && t->mm ? t->mm->exe_file : 0;
}

static struct inode *cwd_node(struct inode *link)
{
	const struct task *t = proc_node_task(link);

	return t && t->state != TASK_ZOMBIE ? t->cwd : 0;
}

static struct inode *root_node(struct inode *link)
{
	return proc_node_task(link) ? vfs_root : 0;
}

static long exe_readlink(struct inode *link, char *buf, size_t size)
{
	const struct inode *n = exe_node(link);

	return n ? path_text(n, buf, size) : -ENOENT;
}

static long cwd_readlink(struct inode *link, char *buf, size_t size)
{
	const struct inode *n = cwd_node(link);

	return n ? path_text(n, buf, size) : -ENOENT;
}

static long root_readlink(struct inode *link, char *buf, size_t size)
{
	return root_node(link) ? vfs_path(vfs_root, buf, size) : -ENOENT;
}

const struct file_ops proc_exe_ops = {.readlink = exe_readlink, .follow = exe_node};
const struct file_ops proc_cwd_ops = {.readlink = cwd_readlink, .follow = cwd_node};
const struct file_ops proc_root_ops = {.readlink = root_readlink, .follow = root_node};

/* ---- fd/ and fdinfo/ ----------------------------------------------------- */

/* The open file behind descriptor fd of node's task, or NULL. */
static struct file *task_file(const struct inode *node, long fd)
{
	const struct task *t = proc_node_task(node);

	if (!t || !t->files || fd < 0 || fd >= FD_MAX || t->state == TASK_ZOMBIE)
		return 0;
	return t->files->t.fd[fd];
}

static struct file *link_file(const struct inode *link)
{
	return task_file(link, proc_parse_num(link->name, link->namelen));
}

static long fd_readlink(struct inode *link, char *buf, size_t size)
{
	const struct file *f = link_file(link);

	return f ? file_text(f->inode, buf, size) : -ENOENT;
}

/* Opening fd/N opens the file again; a pipe as its FIFO (pipe.c); a socket cannot be. */
static struct inode *fd_follow(struct inode *link)
{
	const struct file *f = link_file(link);

	return f && (!anonymous(f->inode) || S_ISFIFO(f->inode->mode)) ? f->inode : 0;
}

static const struct file_ops fd_link_ops = {.readlink = fd_readlink, .follow = fd_follow};

/* Linux's modes: the link says how the descriptor was opened. */
static uint32_t fd_mode(const struct file *f)
{
	return S_IFLNK | (file_readable(f) ? 0500 : 0100) | (file_writable(f) ? 0200 : 0);
}

static int gen_fdinfo(struct pbuf *b, struct task *t, const struct inode *node)
{
	const struct file *f = task_file(node, proc_parse_num(node->name, node->namelen));
	uint32_t flags;
	char octal[12];
	int i = sizeof(octal) - 1;

	if (!f)
		return -ENOENT;
	flags = f->flags;
	if (t->files->t.cloexec[proc_parse_num(node->name, node->namelen)])
		flags |= O_CLOEXEC;
	octal[i] = '\0';
	do
		octal[--i] = (char)('0' + (flags & 7));
	while ((flags >>= 3) && i > 0);
	pb_printf(b, "pos:\t%lu\nflags:\t0%s\nmnt_id:\t%u\nino:\t%u\n", f->pos, octal + i,
		  f->inode->dev, f->inode->ino);
	return 0;
}

PROC_SNAPSHOT(static, fdinfo_ops, gen_fdinfo);

/* dir's node for descriptor fd (open file f): a link in fd/, a file in fdinfo/. */
static struct inode *fd_node(struct inode *dir, long fd, const struct file *f, bool info)
{
	struct inode *n = proc_num_child(dir, (unsigned long)fd, info ? S_IFREG | 0444 : fd_mode(f),
					 info ? &fdinfo_ops : &fd_link_ops);

	if (n && !info)
		n->mode = fd_mode(f); /* the number may have been reused since */
	return n;
}

/* Entry i (from 0) of the open descriptors of dir's task. */
static struct inode *fd_entry_of(struct inode *dir, uint64_t i, bool info)
{
	for (long fd = 0; fd < FD_MAX; fd++) {
		const struct file *f = task_file(dir, fd);

		if (f && !i--)
			return fd_node(dir, fd, f, info);
	}
	return 0;
}

static struct inode *fd_lookup_of(struct inode *dir, const char *name, size_t len, bool info)
{
	long fd = proc_parse_num(name, len);
	const struct file *f = task_file(dir, fd);

	return f ? fd_node(dir, fd, f, info) : 0;
}

static struct inode *fd_lookup(struct inode *dir, const char *name, size_t len)
{
	return fd_lookup_of(dir, name, len, false);
}

static struct inode *fd_entry(struct inode *dir, uint64_t i)
{
	return fd_entry_of(dir, i, false);
}

static struct inode *fdinfo_lookup(struct inode *dir, const char *name, size_t len)
{
	return fd_lookup_of(dir, name, len, true);
}

static struct inode *fdinfo_entry(struct inode *dir, uint64_t i)
{
	return fd_entry_of(dir, i, true);
}

const struct file_ops proc_fd_dir_ops = {.lookup = fd_lookup, .entry = fd_entry};
const struct file_ops proc_fdinfo_dir_ops = {.lookup = fdinfo_lookup, .entry = fdinfo_entry};
