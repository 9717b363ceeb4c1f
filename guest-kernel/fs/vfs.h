/*
 * The in-memory file system: one tree of nodes.
 *
 *   /                the initrd's files and directories, read-only
 *   /tmp             writable (create, write, truncate, unlink, mkdir, link,
 *                    symlink, rename, chmod, chown, utimes)
 *   /dev             console, tty, null, zero, full, random, urandom, fd links
 *   /dev/shm         writable, sticky (POSIX shared memory)
 *   /proc            generated: the system files and a directory per process (procfs.h)
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
#define S_IFBLK 0060000
#define S_IFIFO 0010000
#define S_IFSOCK 0140000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)

#define NAME_MAX 255
#define PATH_MAX 4096
#define SYMLINK_MAX_DEPTH 8

#define INODE_WRITABLE 0x1u /* /tmp and what is created below it */
#define INODE_SYSV_SHM 0x2u /* a System V shared memory segment (fs/sysv_shm.c) */

/* st_dev of each file system (Linux encoding, major 0: anonymous). */
#define VFS_DEV_ROOT 0x01 /* the initrd's rootfs, read-only */
#define VFS_DEV_TMP 0x02  /* /tmp, a tmpfs */
#define VFS_DEV_PROC 0x03 /* /proc */
#define VFS_DEV_DEV 0x04  /* /dev, a devtmpfs */
#define VFS_DEV_SHM 0x05  /* /dev/shm, a tmpfs */

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
	/*
	 * Generated directories and links (procfs); NULL: the children list,
	 * the stored target.  lookup: the child named name[0..len) or NULL;
	 * entry: entry i (from 0, after "." and "..") or NULL past the last;
	 * readlink: the target's text into buf (NUL-terminated): its length or
	 * -errno; follow: the node a "magic" link stands for (/proc/PID/exe),
	 * reached without resolving the text, or NULL (-ENOENT).
	 */
	struct inode *(*lookup)(struct inode *dir, const char *name, size_t len);
	struct inode *(*entry)(struct inode *dir, uint64_t i);
	long (*readlink)(struct inode *link, char *buf, size_t size);
	struct inode *(*follow)(struct inode *link);
};

struct inode {
	uint32_t ino;
	uint32_t mode;     /* S_IF* | permissions */
	uint32_t nlink;
	uint32_t opens;    /* open files: a removed file lives on until the last close */
	uint32_t flags;    /* INODE_* */
	uint32_t dev;      /* Linux encoding of st_dev (major << 8 | minor) */
	uint32_t rdev;     /* character devices */
	uint32_t uid, gid; /* stored as chown(2) set them; every task runs as root */
	uint64_t size;
	uint64_t atime_ns, mtime_ns, ctime_ns; /* CLOCK_REALTIME */
	const struct file_ops *ops;
	struct inode *parent, *children, *next; /* directories */
	char *name;                             /* NUL-terminated, kzalloc'd */
	size_t namelen;
	const uint8_t *data; /* initrd file contents or symlink target */
	uint64_t *pages;     /* /tmp file: up to REGFILE_MAX_PAGES frame addresses */
	/*
	 * A hard link's name (link(2)): this node is only an entry of its
	 * directory and alias the inode it names (never itself an alias).
	 * Lookups see the inode; names (unlink, rename) are the entries.
	 */
	struct inode *alias;
	struct file_lock *locks; /* fs/lock.c: record locks and flock()s held on it */
	struct pipe *pipe;   /* FIFO: its pipe while any end is open (pipe.c) */
};

extern struct inode *vfs_root;

/* Root, /tmp, /dev, /proc; after frames and paging. */
void vfs_init(void);

/*
 * A new node named name[0..len) in dir (which must not hold the name).
 * NULL when out of memory.
 */
struct inode *vfs_create(struct inode *dir, const char *name, size_t len, uint32_t mode);
/*
 * Takes the entry out of its directory: one link fewer for the inode it
 * names, which is freed once it has no link, no open file and no mapping.
 */
void vfs_unlink(struct inode *entry);
/* A new entry name[0..len) in dir naming node (a hard link): NULL when out of memory. */
struct inode *vfs_link(struct inode *dir, const char *name, size_t len, struct inode *node);
/* Moves entry into dir as name[0..len) (dir must not hold the name): 0 or -ENOMEM. */
int vfs_move(struct inode *entry, struct inode *dir, const char *name, size_t len);
/* Swaps two entries' places (renameat2's RENAME_EXCHANGE). */
void vfs_exchange(struct inode *a, struct inode *b);
/* The inode an entry names (itself unless it is a hard link's name). */
static inline struct inode *vfs_inode(struct inode *entry)
{
	return entry && entry->alias ? entry->alias : entry;
}
/* Stamps ctime, and mtime too when data or entries changed, with the time now. */
void vfs_touch(struct inode *node, bool modified);
/* Frees a node that is unlinked and no longer open. */
void vfs_release(struct inode *node);

/* The inode of dir's entry name[0..len), or NULL (vfs_entry: the entry itself). */
struct inode *vfs_child(struct inode *dir, const char *name, size_t len);
struct inode *vfs_entry(struct inode *dir, const char *name, size_t len);
/* Like vfs_entry, through dir's lookup when it generates its entries (procfs). */
struct inode *vfs_dir_lookup(struct inode *dir, const char *name, size_t len);
/* A symlink's target text into buf (NUL-terminated): its length or -errno. */
long vfs_readlink(struct inode *link, char *buf, size_t size);

/*
 * Path resolution.  start: directory for relative paths.  Resolves all but
 * the last component; then *node is the last one (NULL if it does not exist,
 * which is not an error here), *dir its directory and name/namelen its name.
 * follow: a symlink as last component is followed.  0 or -errno (ENOENT,
 * ENOTDIR, ENAMETOOLONG, ELOOP).  entry is the last component's directory
 * entry (unlink, rename and link change entries), node the inode it names.
 */
struct lookup {
	struct inode *dir, *node, *entry;
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
/*
 * Sets a /tmp file's size, freeing or zero-extending: 0 or -errno.  Pages
 * a MAP_SHARED area may map stay (zeroed past the end) until the file goes.
 */
int regfile_truncate(struct inode *node, uint64_t size);
/* Physical address of a /tmp file's page at off, allocated zeroed if absent; 0: none. */
uint64_t regfile_page(struct inode *node, uint64_t off);

#endif
