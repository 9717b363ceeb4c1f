/*
 * statfs/fstatfs (Linux's x86-64 struct statfs) and the sync calls.  Each
 * file system answers with Linux's magic number for its kind: the initrd's
 * root is a ramfs (Linux's rootfs; read-only here), /tmp and /dev/shm
 * tmpfs, /dev a devtmpfs (which reports tmpfs's magic), /proc proc.  The
 * writable ones count blocks of 4096 bytes from the frame allocator: their
 * pages come from the same frames every other use takes.  Everything is in
 * memory, so the sync calls have nothing to write: they check their
 * argument and answer 0.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994
#define PROC_SUPER_MAGIC 0x9fa0
#define ST_RDONLY 0x0001
#define ST_VALID 0x0020

struct kstatfs {
	int64_t type, bsize;
	uint64_t blocks, bfree, bavail, files, ffree;
	int32_t fsid[2];
	int64_t namelen, frsize, flags, spare[4];
};
_Static_assert(sizeof(struct kstatfs) == 120, "struct statfs of x86-64 Linux");

static long statfs_to_user(const struct inode *n, uint64_t ubuf)
{
	struct kstatfs s;
	uint64_t free = frame_stats.total - frame_stats.in_use;

	memset(&s, 0, sizeof(s));
	s.bsize = s.frsize = 4096;
	s.namelen = NAME_MAX;
	s.fsid[0] = (int32_t)n->dev;
	s.flags = ST_VALID;
	switch (n->dev) {
	case VFS_DEV_PROC:
		s.type = PROC_SUPER_MAGIC;
		break;
	case VFS_DEV_ROOT:
		s.type = RAMFS_MAGIC; /* ramfs counts nothing */
		s.flags |= ST_RDONLY;
		break;
	default: /* tmpfs: /tmp, /dev, /dev/shm */
		s.type = TMPFS_MAGIC;
		s.blocks = s.files = frame_stats.total;
		s.bfree = s.bavail = s.ffree = free;
		break;
	}
	return copy_to_user(ubuf, &s, sizeof(s));
}

SYSCALL_DEFINE2(statfs, uint64_t, pathname, uint64_t, buf)
{
	char path[PATH_MAX];
	struct inode *n;
	int err = path_from_user(path, pathname);

	if (!err)
		err = vfs_lookup(current->cwd, path, true, &n);
	return err ? err : statfs_to_user(n, buf);
}

SYSCALL_DEFINE2(fstatfs, int, fd, uint64_t, buf)
{
	struct file *f = fd_get(fd);

	return f ? statfs_to_user(f->inode, buf) : -EBADF;
}

/* fsync, fdatasync, syncfs: a descriptor that is open (O_PATH ones are not, for these). */
SYSCALL_DEFINE1(fsync, int, fd)
{
	struct file *f = fd_get(fd);

	return f && !(f->flags & O_PATH) ? 0 : -EBADF;
}

SYSCALL_DEFINE0(sync)
{
	return 0;
}
