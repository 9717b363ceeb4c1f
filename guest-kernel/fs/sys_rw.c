/*
 * Data syscalls: read and write in their forms, and lseek.  The lseek loop
 * of the benchmark runs through sys_lseek: keep it a lookup and an
 * assignment.
 */
#include "fs/file.h"
#include "fs/unix_sock.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "sys/uio.h"

#define IOV_BATCH 16

/* pos: NULL to use and move the file position (read/write), else pread/pwrite's offset. */
static long do_read(struct file *f, uint64_t buf, uint64_t len, const uint64_t *pos)
{
	long ret;

	if (!file_readable(f))
		return -EBADF;
	/* As Linux's vfs_read: the whole buffer must be user memory, whatever the file does. */
	if (!user_range_ok(buf, len))
		return -EFAULT;
	if (S_ISDIR(f->inode->mode))
		return -EISDIR;
	if (!f->ops || !f->ops->read)
		return -EINVAL;
	if (pos && !f->ops->seekable)
		return -ESPIPE;
	ret = f->ops->read(f, buf, len > MAX_RW_COUNT ? MAX_RW_COUNT : len, pos ? *pos : f->pos);
	if (ret > 0 && !pos)
		f->pos += (uint64_t)ret;
	return ret;
}

static long do_write(struct file *f, uint64_t buf, uint64_t len, const uint64_t *pos)
{
	long ret;

	if (!file_writable(f))
		return -EBADF;
	if (!user_range_ok(buf, len))
		return -EFAULT;
	if (!f->ops || !f->ops->write)
		return -EINVAL;
	if (pos && !f->ops->seekable)
		return -ESPIPE;
	if (!pos && (f->flags & O_APPEND))
		f->pos = f->inode->size;
	ret = f->ops->write(f, buf, len > MAX_RW_COUNT ? MAX_RW_COUNT : len, pos ? *pos : f->pos);
	if (ret > 0 && !pos)
		f->pos += (uint64_t)ret;
	return ret;
}

typedef long rw_fn(struct file *f, uint64_t buf, uint64_t len, const uint64_t *pos);

/* readv/writev: one transfer per element, stopping at the first short one. */
static long do_vec(rw_fn *rw, uint64_t fd, uint64_t uiov, uint64_t cnt)
{
	struct file *f = fd_get((int)fd);
	struct iovec_user iov[IOV_BATCH];
	uint64_t i, done = 0;

	if (!f)
		return -EBADF;
	if (cnt > UIO_MAXIOV)
		return -EINVAL;
	if (unix_of(f)) /* one message, not one per element */
		return rw == do_read ? unix_readv(f, uiov, cnt) : unix_writev(f, uiov, cnt);
	for (i = 0; i < cnt; i++) {
		long ret;

		if (i % IOV_BATCH == 0 &&
		    copy_from_user(iov, uiov + i * sizeof(iov[0]),
				   (cnt - i < IOV_BATCH ? cnt - i : IOV_BATCH) * sizeof(iov[0])))
			return done ? (long)done : -EFAULT;
		if ((int64_t)iov[i % IOV_BATCH].len < 0)
			return done ? (long)done : -EINVAL;
		if (!iov[i % IOV_BATCH].len)
			continue;
		ret = rw(f, iov[i % IOV_BATCH].base, iov[i % IOV_BATCH].len, 0);
		if (ret < 0)
			return done ? (long)done : ret;
		done += (uint64_t)ret;
		if ((uint64_t)ret < iov[i % IOV_BATCH].len)
			break;
	}
	return (long)done;
}

SYSCALL_DEFINE3(read, int, fd, uint64_t, buf, uint64_t, count)
{
	struct file *f = fd_get(fd);

	return f ? do_read(f, buf, count, 0) : -EBADF;
}

SYSCALL_DEFINE3(write, int, fd, uint64_t, buf, uint64_t, count)
{
	struct file *f = fd_get(fd);

	return f ? do_write(f, buf, count, 0) : -EBADF;
}

SYSCALL_DEFINE4(pread64, int, fd, uint64_t, buf, uint64_t, count, uint64_t, pos)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	return (int64_t)pos < 0 ? -EINVAL : do_read(f, buf, count, &pos);
}

SYSCALL_DEFINE4(pwrite64, int, fd, uint64_t, buf, uint64_t, count, uint64_t, pos)
{
	struct file *f = fd_get(fd);

	if (!f)
		return -EBADF;
	return (int64_t)pos < 0 ? -EINVAL : do_write(f, buf, count, &pos);
}

SYSCALL_DEFINE3(readv, uint64_t, fd, uint64_t, vec, uint64_t, vlen)
{
	return do_vec(do_read, fd, vec, vlen);
}

SYSCALL_DEFINE3(writev, uint64_t, fd, uint64_t, vec, uint64_t, vlen)
{
	return do_vec(do_write, fd, vec, vlen);
}

SYSCALL_DEFINE3(lseek, int, fd, int64_t, off, uint64_t, whence)
{
	struct file *f = fd_get(fd);
	int64_t base;

	if (!f)
		return -EBADF;
	if (!f->ops || !f->ops->seekable) {
		/* Directories: rewinddir/seekdir set the listing index. */
		if (!S_ISDIR(f->inode->mode))
			return -ESPIPE;
		if (whence != SEEK_SET || off < 0)
			return -EINVAL;
		f->pos = (uint64_t)off;
		return off;
	}
	if (whence == SEEK_SET)
		base = 0;
	else if (whence == SEEK_CUR)
		base = (int64_t)f->pos;
	else if (whence == SEEK_END || whence == SEEK_HOLE)
		base = (int64_t)f->inode->size;
	else if (whence == SEEK_DATA)
		base = off < (int64_t)f->inode->size ? 0 : -1;
	else
		return -EINVAL;
	if (whence == SEEK_HOLE)
		off = off > base ? -1 : 0;
	if (base < 0 || (off > 0 && base > INT64_MAX - off) || base + off < 0)
		return whence >= SEEK_DATA ? -ENXIO : -EINVAL;
	f->pos = (uint64_t)(base + off);
	return (long)f->pos;
}
