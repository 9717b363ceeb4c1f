/*
 * The node tree and path resolution (vfs.h).  Directories keep their
 * children in a singly linked list: the tree holds tens of files.  A node
 * is an inode and its first name at once; further names (hard links) are
 * entries whose alias is the inode.
 */
#include "fs/devfs.h"
#include "fs/procfs.h"
#include "fs/vfs.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "time/time.h"

struct inode *vfs_root;
static uint32_t next_ino = 1;

uint32_t vfs_next_ino(void)
{
	return next_ino++;
}

void vfs_touch(struct inode *node, bool modified)
{
	node->ctime_ns = time_realtime_ns();
	if (modified)
		node->mtime_ns = node->ctime_ns;
}

/* Puts n, named already, at the head of dir's list. */
static void insert_entry(struct inode *dir, struct inode *n)
{
	n->parent = dir;
	n->next = dir->children;
	dir->children = n;
	if (S_ISDIR(n->mode))
		dir->nlink++;
	vfs_touch(dir, true);
}

/* Puts n at the head of dir's list as name[0..len) (copied): false when out of memory. */
static bool add_entry(struct inode *dir, struct inode *n, const char *name, size_t len)
{
	char *copy = kzalloc(len + 1);

	if (!copy)
		return false;
	memcpy(copy, name, len);
	if (n->name)
		kfree(n->name, n->namelen + 1);
	n->name = copy;
	n->namelen = len;
	insert_entry(dir, n);
	return true;
}

/* Takes n out of its directory's list. */
static void remove_entry(struct inode *n)
{
	struct inode **pp, *dir = n->parent;

	for (pp = &dir->children; *pp; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	}
	if (S_ISDIR(n->mode))
		dir->nlink--;
	vfs_touch(dir, true);
}

struct inode *vfs_create(struct inode *dir, const char *name, size_t len, uint32_t mode)
{
	struct inode *n = kzalloc(sizeof(*n));

	if (!n)
		return 0;
	n->ino = vfs_next_ino();
	n->mode = mode;
	n->nlink = S_ISDIR(mode) ? 2 : 1;
	n->atime_ns = n->mtime_ns = n->ctime_ns = time_realtime_ns();
	n->parent = n;
	if (dir) {
		n->dev = dir->dev;
		n->flags = dir->flags & INODE_WRITABLE;
	}
	if (dir ? !add_entry(dir, n, name, len) : !(n->name = kzalloc(len + 1))) {
		kfree(n, sizeof(*n));
		return 0;
	}
	return n;
}

struct inode *vfs_entry(struct inode *dir, const char *name, size_t len)
{
	struct inode *c;

	for (c = dir->children; c; c = c->next)
		if (c->namelen == len && !memcmp(c->name, name, len))
			return c;
	return 0;
}

struct inode *vfs_child(struct inode *dir, const char *name, size_t len)
{
	return vfs_inode(vfs_entry(dir, name, len));
}

struct inode *vfs_link(struct inode *dir, const char *name, size_t len, struct inode *node)
{
	struct inode *e = kzalloc(sizeof(*e));

	if (!e)
		return 0;
	e->alias = node;
	e->mode = node->mode & S_IFMT; /* the type, for directory listings */
	e->ino = node->ino;
	e->flags = dir->flags & INODE_WRITABLE;
	if (!add_entry(dir, e, name, len)) {
		kfree(e, sizeof(*e));
		return 0;
	}
	node->nlink++;
	vfs_touch(node, false);
	return e;
}

int vfs_move(struct inode *entry, struct inode *dir, const char *name, size_t len)
{
	struct inode *old_dir = entry->parent;

	remove_entry(entry);
	if (!add_entry(dir, entry, name, len)) {
		insert_entry(old_dir, entry); /* the old name is still held */
		return -ENOMEM;
	}
	vfs_touch(vfs_inode(entry), false);
	return 0;
}

void vfs_exchange(struct inode *a, struct inode *b)
{
	struct inode *da = a->parent, *db = b->parent;
	char *name = a->name;
	size_t len = a->namelen;

	remove_entry(a);
	remove_entry(b);
	a->name = b->name;
	a->namelen = b->namelen;
	b->name = name;
	b->namelen = len;
	insert_entry(db, a);
	insert_entry(da, b);
	vfs_touch(vfs_inode(a), false);
	vfs_touch(vfs_inode(b), false);
}

struct inode *vfs_dir_lookup(struct inode *dir, const char *name, size_t len)
{
	if (dir->ops && dir->ops->lookup)
		return dir->ops->lookup(dir, name, len);
	return vfs_entry(dir, name, len);
}

long vfs_readlink(struct inode *link, char *buf, size_t size)
{
	if (link->ops && link->ops->readlink)
		return link->ops->readlink(link, buf, size);
	if (link->size >= size)
		return -ENAMETOOLONG;
	memcpy(buf, link->data, link->size);
	buf[link->size] = '\0';
	return (long)link->size;
}

/*
 * True when an area of any address space maps node (it must outlive its
 * last close).  Areas hold no reference count: the address spaces are few
 * and so are their areas, and mm.c calls vfs_release again for the files of
 * the areas it drops (munmap, exit, exec), so the last unmap frees the node.
 */
static bool mapped_by_any(const struct inode *node)
{
	return mm_maps_file(node);
}

void vfs_release(struct inode *node)
{
	if (node->nlink || node->opens || mapped_by_any(node))
		return;
	if (S_ISREG(node->mode) && node->pages)
		regfile_truncate(node, 0);
	/* A symlink made by symlink(2) owns its target; the initrd's point into the module. */
	if (S_ISLNK(node->mode) && (node->flags & INODE_WRITABLE) && node->data)
		kfree((void *)node->data, node->size + 1);
	kfree(node->name, node->namelen + 1);
	kfree(node, sizeof(*node));
}

void vfs_unlink(struct inode *entry)
{
	struct inode *node = vfs_inode(entry);

	remove_entry(entry);
	if (entry != node) {
		kfree(entry->name, entry->namelen + 1);
		kfree(entry, sizeof(*entry));
	}
	if (S_ISDIR(node->mode) || !--node->nlink)
		node->nlink = 0;
	else
		vfs_touch(node, false);
	/* Still named elsewhere: it keeps its name but no directory (parent is itself). */
	if (entry == node)
		node->parent = node;
	vfs_release(node);
}

static struct inode *mkdir_fixed(struct inode *dir, const char *name, uint32_t flags, uint32_t dev)
{
	struct inode *n = vfs_child(dir, name, strlen(name));

	if (!n)
		n = vfs_create(dir, name, strlen(name), S_IFDIR | 0755);
	if (!n || !S_ISDIR(n->mode))
		panic("vfs: cannot create /%s", name);
	n->flags |= flags;
	n->dev = dev;
	return n;
}

void vfs_init(void)
{
	struct inode *tmp;

	vfs_root = vfs_create(0, "", 0, S_IFDIR | 0755);
	if (!vfs_root)
		panic("vfs: out of memory for the root directory");
	vfs_root->dev = VFS_DEV_ROOT;
	tmp = mkdir_fixed(vfs_root, "tmp", INODE_WRITABLE, VFS_DEV_TMP);
	tmp->mode = S_IFDIR | 01777;
	devfs_init(mkdir_fixed(vfs_root, "dev", 0, VFS_DEV_DEV));
	procfs_init(mkdir_fixed(vfs_root, "proc", 0, VFS_DEV_PROC));
}

/* Length of the component at p (up to '/' or the end). */
static size_t component_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != '/')
		n++;
	return n;
}

static int resolve_at(struct inode *start, const char *path, bool follow, struct lookup *l,
		      int depth);

/* Follows the symlink node (found in dir) to what it names. */
static int follow_link(struct inode *dir, struct inode *link, struct inode **out,
		       struct inode **entry, int depth)
{
	/* Small: resolution recurses up to SYMLINK_MAX_DEPTH times on the kernel stack. */
	char target[256];
	struct lookup l;
	long len;
	int err;

	if (depth >= SYMLINK_MAX_DEPTH)
		return -ELOOP;
	if (link->ops && link->ops->follow) {
		*out = *entry = link->ops->follow(link); /* generated: its own entry */
		return *out ? 0 : -ENOENT;
	}
	len = vfs_readlink(link, target, sizeof(target));
	if (len < 0)
		return (int)len;
	err = resolve_at(dir, target, true, &l, depth + 1);
	if (err)
		return err;
	if (!l.node)
		return -ENOENT;
	*out = l.node;
	*entry = l.entry;
	return 0;
}

static int resolve_at(struct inode *start, const char *path, bool follow, struct lookup *l,
		      int depth)
{
	struct inode *cur = *path == '/' ? vfs_root : start;
	const char *p = path;
	int err;

	if (!*path)
		return -ENOENT;
	*l = (struct lookup){.dir = cur, .node = cur, .entry = cur, .name = ".", .namelen = 1};
	for (;;) {
		size_t len;
		struct inode *next, *entry;

		while (*p == '/')
			p++;
		if (!*p)
			return 0; /* "/" alone, or trailing slashes after a directory */
		len = component_len(p);
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		if (!S_ISDIR(cur->mode))
			return -ENOTDIR;
		if (len == 1 && p[0] == '.')
			entry = cur;
		else if (len == 2 && p[0] == '.' && p[1] == '.')
			entry = cur->parent;
		else
			entry = vfs_dir_lookup(cur, p, len);
		next = vfs_inode(entry);
		l->dir = cur;
		l->name = p;
		l->namelen = len;
		p += len;
		l->trailing_slash = *p == '/';
		while (*p == '/')
			p++;
		if (next && S_ISLNK(next->mode) && (*p || follow || l->trailing_slash)) {
			err = follow_link(cur, next, &next, &entry, depth);
			if (err)
				return err;
		}
		l->node = next;
		l->entry = entry;
		if (!*p)
			return 0;
		if (!next)
			return -ENOENT;
		cur = next;
	}
}

int vfs_resolve(struct inode *start, const char *path, bool follow, struct lookup *l)
{
	return resolve_at(start, path, follow, l, 0);
}

int vfs_lookup(struct inode *start, const char *path, bool follow, struct inode **node)
{
	struct lookup l;
	int err = vfs_resolve(start, path, follow, &l);

	if (err)
		return err;
	if (!l.node)
		return -ENOENT;
	if (l.trailing_slash && !S_ISDIR(l.node->mode))
		return -ENOTDIR;
	*node = l.node;
	return 0;
}

long vfs_path(const struct inode *node, char *buf, size_t size)
{
	size_t len = 0, pos;
	const struct inode *n;

	if (node == vfs_root) {
		if (size < 2)
			return -ENAMETOOLONG;
		memcpy(buf, "/", 2);
		return 1;
	}
	for (n = node; n != vfs_root && n->parent != n; n = n->parent)
		len += n->namelen + 1;
	if (len + 1 > size)
		return -ENAMETOOLONG;
	pos = len;
	buf[pos] = '\0';
	for (n = node; n != vfs_root && n->parent != n; n = n->parent) {
		pos -= n->namelen;
		memcpy(buf + pos, n->name, n->namelen);
		buf[--pos] = '/';
	}
	return (long)len;
}
