/*
 * Syscalls that change an inode's attributes: chmod, chown and the
 * timestamps (utimensat and its older forms).  Every task is root, so no
 * ownership check applies; what cannot change is the read-only initrd
 * (EROFS).  /tmp and what lies under it, and the device nodes, can.
 */
#include "fs/file.h"
#include "fs/path.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define S_ISUID 04000
#define S_ISGID 02000
#define S_IXGRP 00010
#define UTIME_NOW ((1l << 30) - 1)
#define UTIME_OMIT ((1l << 30) - 2)

struct timespec_user {
	int64_t sec, nsec;
};

static int attr_writable(const struct inode *n)
{
	return (n->flags & INODE_WRITABLE) || S_ISCHR(n->mode) ? 0 : -EROFS;
}

/*
 * The inode a path names (AT_EMPTY_PATH: dirfd's own, also for a NULL
 * path when null_is_fd, utimensat's rule): 0 or -errno.
 */
static int attr_target(int64_t dirfd, uint64_t upath, uint64_t flags, bool null_is_fd,
		       struct inode **n)
{
	char path[PATH_MAX];
	int err;

	if (!upath && null_is_fd) {
		if ((int)dirfd == AT_FDCWD)
			return -EFAULT; /* Linux: a NULL path names dirfd, and AT_FDCWD is none */
		path[0] = '\0';
		flags |= AT_EMPTY_PATH;
	} else if ((err = path_from_user(path, upath))) {
		return err;
	}
	return path_inode_at(dirfd, path, flags, n);
}

static long set_mode(struct inode *n, uint64_t mode)
{
	int err = attr_writable(n);

	if (err)
		return err;
	n->mode = (n->mode & S_IFMT) | ((uint32_t)mode & 07777);
	vfs_touch(n, false);
	return 0;
}

SYSCALL_DEFINE2(chmod, uint64_t, filename, uint64_t, mode)
{
	struct inode *n;
	int err = attr_target(AT_FDCWD, filename, 0, false, &n);

	return err ? err : set_mode(n, mode);
}

SYSCALL_DEFINE3(fchmodat, int64_t, dfd, uint64_t, filename, uint64_t, mode)
{
	struct inode *n;
	int err = attr_target(dfd, filename, 0, false, &n);

	return err ? err : set_mode(n, mode);
}

SYSCALL_DEFINE2(fchmod, int, fd, uint64_t, mode)
{
	struct file *f = fd_get(fd);

	if (!f || (f->flags & O_PATH))
		return -EBADF;
	return set_mode(f->inode, mode);
}

/* chown: -1 keeps an id; a change of a non-directory clears set-user-ID and set-group-ID (if group-executable). */
static long set_owner(struct inode *n, uint64_t uid, uint64_t gid)
{
	int err = attr_writable(n);

	if (err)
		return err;
	if ((uint32_t)uid != UINT32_MAX)
		n->uid = (uint32_t)uid;
	if ((uint32_t)gid != UINT32_MAX)
		n->gid = (uint32_t)gid;
	if (!S_ISDIR(n->mode) && ((uint32_t)uid != UINT32_MAX || (uint32_t)gid != UINT32_MAX)) {
		n->mode &= ~(uint32_t)S_ISUID;
		if (n->mode & S_IXGRP)
			n->mode &= ~(uint32_t)S_ISGID;
	}
	vfs_touch(n, false);
	return 0;
}

static long do_chown(int64_t dirfd, uint64_t upath, uint64_t uid, uint64_t gid, uint64_t flags)
{
	struct inode *n;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = attr_target(dirfd, upath, flags, false, &n);
	return err ? err : set_owner(n, uid, gid);
}

SYSCALL_DEFINE3(chown, uint64_t, filename, uint64_t, user, uint64_t, group)
{
	return do_chown(AT_FDCWD, filename, user, group, 0);
}

SYSCALL_DEFINE3(lchown, uint64_t, filename, uint64_t, user, uint64_t, group)
{
	return do_chown(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}

SYSCALL_DEFINE5(fchownat, int64_t, dfd, uint64_t, filename, uint64_t, user, uint64_t, group,
		uint64_t, flag)
{
	return do_chown(dfd, filename, user, group, flag);
}

SYSCALL_DEFINE3(fchown, int, fd, uint64_t, user, uint64_t, group)
{
	struct file *f = fd_get(fd);

	if (!f || (f->flags & O_PATH))
		return -EBADF;
	return set_owner(f->inode, user, group);
}

/* One timestamp of utimensat: UTIME_OMIT keeps *ns, UTIME_NOW takes now: 0 or -EINVAL. */
static int apply_time(const struct timespec_user *t, uint64_t now, uint64_t *ns)
{
	if (t->nsec == UTIME_OMIT)
		return 0;
	if (t->nsec == UTIME_NOW) {
		*ns = now;
		return 0;
	}
	if (t->nsec < 0 || t->nsec >= (int64_t)NSEC_PER_SEC)
		return -EINVAL;
	*ns = (uint64_t)(t->sec * NSEC_PER_SEC + t->nsec);
	return 0;
}

/* times: NULL for both now; the inode's ctime changes unless both are UTIME_OMIT. */
static long set_times(int64_t dirfd, uint64_t upath, const struct timespec_user *times,
		      uint64_t flags)
{
	struct timespec_user now_both[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
	uint64_t now = time_realtime_ns(), atime, mtime;
	struct inode *n;
	int err;

	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!times)
		times = now_both;
	/* Linux checks the values before the name. */
	if ((times[0].nsec != UTIME_OMIT && times[0].nsec != UTIME_NOW &&
	     (times[0].nsec < 0 || times[0].nsec >= (int64_t)NSEC_PER_SEC)) ||
	    (times[1].nsec != UTIME_OMIT && times[1].nsec != UTIME_NOW &&
	     (times[1].nsec < 0 || times[1].nsec >= (int64_t)NSEC_PER_SEC)))
		return -EINVAL;
	err = attr_target(dirfd, upath, flags, true, &n);
	if (!err)
		err = attr_writable(n);
	if (err)
		return err;
	if (times[0].nsec == UTIME_OMIT && times[1].nsec == UTIME_OMIT)
		return 0;
	atime = n->atime_ns;
	mtime = n->mtime_ns;
	apply_time(&times[0], now, &atime);
	apply_time(&times[1], now, &mtime);
	n->atime_ns = atime;
	n->mtime_ns = mtime;
	n->ctime_ns = now;
	return 0;
}

SYSCALL_DEFINE4(utimensat, int64_t, dfd, uint64_t, filename, uint64_t, utimes, uint64_t, flags)
{
	struct timespec_user t[2];

	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	return set_times(dfd, filename, utimes ? t : 0, flags);
}

/* utimes and futimesat take struct timeval pairs (microseconds 0..999999). */
static long set_times_timeval(int64_t dirfd, uint64_t upath, uint64_t utv)
{
	int64_t tv[4];
	struct timespec_user t[2];
	int i;

	if (!utv)
		return set_times(dirfd, upath, 0, 0);
	if (copy_from_user(tv, utv, sizeof(tv)))
		return -EFAULT;
	for (i = 0; i < 2; i++) {
		if (tv[2 * i + 1] < 0 || tv[2 * i + 1] >= 1000000)
			return -EINVAL;
		t[i].sec = tv[2 * i];
		t[i].nsec = tv[2 * i + 1] * 1000;
	}
	return set_times(dirfd, upath, t, 0);
}

SYSCALL_DEFINE2(utimes, uint64_t, filename, uint64_t, utimes)
{
	return set_times_timeval(AT_FDCWD, filename, utimes);
}

SYSCALL_DEFINE3(futimesat, int64_t, dfd, uint64_t, filename, uint64_t, utimes)
{
	return set_times_timeval(dfd, filename, utimes);
}

/* utime(path, {actime, modtime}): whole seconds. */
SYSCALL_DEFINE2(utime, uint64_t, filename, uint64_t, times)
{
	int64_t tb[2];
	struct timespec_user t[2];

	if (!times)
		return set_times(AT_FDCWD, filename, 0, 0);
	if (copy_from_user(tb, times, sizeof(tb)))
		return -EFAULT;
	t[0] = (struct timespec_user){tb[0], 0};
	t[1] = (struct timespec_user){tb[1], 0};
	return set_times(AT_FDCWD, filename, t, 0);
}
