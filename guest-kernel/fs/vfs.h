/*
 * The in-memory file system: one tree of nodes.
 *
 *   /                the initrd's files and directories, read-only
 *   /tmp             writable (create, write, truncate, unlink, mkdir)
 *   /dev             console, null, zero
 *   /proc/self       maps (generated from the areas), exe (link to the program)
 *
 * A node's behaviour is its file_ops (regfile.c, devfs.c, procfs.c).
 */
#ifndef EL_FS_VFS_H
#define EL_FS_VFS_H

#include "kernel.h"

#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_IFLNK 0120000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)

#define NAME_MAX 255
#define PATH_MAX 4096
#define SYMLINK_MAX_DEPTH 8

#define INODE_WRITABLE 0x1u /* /tmp and what is created below it */

struct file;

struct file_ops {
	/* Bytes moved at off (the caller moves the position), or -errno; NULL: -EINVAL. */
	long (*read)(struct file *f, uint64_t ubuf, size_t len, uint64_t off);
	long (*write)(struct file *f, uint64_t ubuf, size_t len, uint64_t off);
	/* Called at open; may fill f->priv. */
	int (*open)(struct file *f);
	/* Called once the last descriptor of an open file is closed (NULL: nothing to do). */
	void (*release)(struct file *f);
	/* Readiness now, POLL* bits (fs/poll.h); NULL: always readable and writable. */
	uint32_t (*poll)(struct file *f);
	/* ioctl(2) requests of this kind of file; NULL or -ENOTTY: not one it knows. */
	long (*ioctl)(struct file *f, uint64_t cmd, uint64_t arg);
	bool seekable;
};

struct inode {
	uint32_t ino;
	uint32_t mode;     /* S_IF* | permissions */
	uint32_t nlink;
	uint32_t opens;    /* open files: a removed file lives on until the last close */
	uint32_t flags;    /* INODE_* */
	uint32_t dev;      /* Linux encoding of st_dev (major << 8 | minor) */
	uint32_t rdev;     /* character devices */
	uint64_t size;
	uint64_t mtime_ns;
	const struct file_ops *ops;
	struct inode *parent, *children, *next; /* directories */
	char *name;                             /* NUL-terminated, kzalloc'd */
	size_t namelen;
	const uint8_t *data; /* initrd file contents or symlink target */
	uint64_t *pages;     /* /tmp file: up to REGFILE_MAX_PAGES frame addresses */
};

extern struct inode *vfs_root;

/* Root, /tmp, /dev, /proc/self; after frames and paging. */
void vfs_init(void);

/*
 * A new node named name[0..len) in dir (which must not hold the name).
 * NULL when out of memory.
 */
struct inode *vfs_create(struct inode *dir, const char *name, size_t len, uint32_t mode);
/* Takes the node out of its directory; frees it once no file has it open. */
void vfs_unlink(struct inode *node);
/* Frees a node that is unlinked and no longer open. */
void vfs_release(struct inode *node);

/* Child of dir named name[0..len), or NULL. */
struct inode *vfs_child(struct inode *dir, const char *name, size_t len);

/*
 * Path resolution.  start: directory for relative paths.  Resolves all but
 * the last component; then *node is the last one (NULL if it does not exist,
 * which is not an error here), *dir its directory and name/namelen its name.
 * follow: a symlink as last component is followed.  0 or -errno (ENOENT,
 * ENOTDIR, ENAMETOOLONG, ELOOP).
 */
struct lookup {
	struct inode *dir, *node;
	const char *name;
	size_t namelen;
	bool trailing_slash;
};
int vfs_resolve(struct inode *start, const char *path, bool follow, struct lookup *l);

/* Like vfs_resolve but the node must exist: 0 or -errno. */
int vfs_lookup(struct inode *start, const char *path, bool follow, struct inode **node);

/* Absolute path of node into buf (NUL-terminated); length or -ENAMETOOLONG. */
long vfs_path(const struct inode *node, char *buf, size_t size);

/* A new inode number. */
uint32_t vfs_next_ino(void);

/* Regular files (regfile.c). */
extern const struct file_ops regfile_initrd_ops, regfile_tmp_ops;
/* Copies the page of file data at off into dst, zero past limit and past the end. */
void vfs_fill_page(const void *inode, uint64_t off, uint64_t limit, void *dst);
/* Sets a /tmp file's size, freeing or zero-extending: 0 or -errno. */
int regfile_truncate(struct inode *node, uint64_t size);

#endif
