/*
 * process_vm_readv(2) and process_vm_writev(2) as Linux's
 * mm/process_vm_access.c behaves:
 *   flags != 0, more than UIO_MAXIOV elements, a length that does not fit
 *   ssize_t: EINVAL; an iovec array that cannot be read, or a local buffer
 *   outside user space: EFAULT; no such pid: ESRCH (after the lengths: all
 *   zero is 0 before the pid is looked up).
 *   The remote side goes page by page through its address space
 *   (mm_access_page, as get_user_pages: [vvar] and areas without the access
 *   refuse; the vsyscall page reads when [vsyscall] is readable, as Linux's
 *   gate area); the transfer stops at the first remote page that cannot be
 *   reached or local page that faults, and returns the bytes moved before
 *   it, or -EFAULT when there were none.
 * The target is any live task's address space: the caller's own (its pid,
 * or any thread sharing its mm) or another process's, reached through the
 * direct map without loading it.  Permissions: everything runs as root.
 */
#include "mm/layout.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uio.h"

#define IOV_BATCH 16

/* A reader of one iovec array in batches (the array stays in user memory). */
struct iov_cursor {
	uint64_t uarr, cnt, i; /* element i is next */
	struct iovec_user batch[IOV_BATCH];
	uint64_t batch_first;  /* index of batch[0], or UINT64_MAX when empty */
};

static int iov_get(struct iov_cursor *c, uint64_t i, struct iovec_user *out)
{
	if (c->batch_first == UINT64_MAX || i < c->batch_first || i >= c->batch_first + IOV_BATCH) {
		uint64_t n = c->cnt - i < IOV_BATCH ? c->cnt - i : IOV_BATCH;

		if (copy_from_user(c->batch, c->uarr + i * sizeof(*out), n * sizeof(*out)))
			return -EFAULT;
		c->batch_first = i;
	}
	*out = c->batch[i - c->batch_first];
	return 0;
}

/*
 * Linux's import/iovec_from_user checks over the whole array: the sum of
 * lengths (capped at MAX_RW_COUNT); local buffers must be user addresses.
 */
static long iov_check(struct iov_cursor *c, bool local, uint64_t *total)
{
	struct iovec_user v;
	uint64_t i;

	*total = 0;
	if (c->cnt > UIO_MAXIOV)
		return -EINVAL;
	for (i = 0; i < c->cnt; i++) {
		if (iov_get(c, i, &v))
			return -EFAULT;
		if ((int64_t)v.len < 0)
			return -EINVAL;
		if (local && !user_range_ok(v.base, v.len))
			return -EFAULT;
		*total += v.len;
	}
	return 0;
}

/* The address space behind pid: the caller's for its own pid or threads. */
static struct mm *target_mm(int pid)
{
	struct task *t = task_find(pid);

	if (!t || !t->mm || t->state == TASK_ZOMBIE)
		return 0;
	return t->mm;
}

struct xfer {
	struct mm *mm;
	bool write;
	struct iov_cursor local;
	struct iovec_user lv; /* the current local element, what is left of it */
	uint64_t left;        /* bytes still allowed (MAX_RW_COUNT) */
	uint64_t done;
};

/* The next non-empty local element; false when the local side is used up. */
static bool local_next(struct xfer *x)
{
	while (!x->lv.len) {
		if (x->local.i >= x->local.cnt)
			return false;
		if (iov_get(&x->local, x->local.i++, &x->lv))
			return false;
	}
	return true;
}

/* One remote element: 0, or -EFAULT where it stops. */
static long xfer_remote(struct xfer *x, uint64_t raddr, uint64_t rlen)
{
	while (rlen && x->left && local_next(x)) {
		uint8_t *k = raddr >= TASK_SIZE_MAX ? (x->write ? 0 : (uint8_t *)mm_gate_page(raddr))
						    : mm_access_page(x->mm, raddr, x->write);
		uint64_t n = PAGE_SIZE - (raddr & (PAGE_SIZE - 1));
		uint64_t lpage = PAGE_SIZE - (x->lv.base & (PAGE_SIZE - 1));

		if (!k)
			return -EFAULT;
		/* One remote page, one local page at most: a fault costs no more than it. */
		n = n < rlen ? n : rlen;
		n = n < x->lv.len ? n : x->lv.len;
		n = n < lpage ? n : lpage;
		n = n < x->left ? n : x->left;
		if (x->write ? copy_from_user(k, x->lv.base, n) : copy_to_user(x->lv.base, k, n))
			return -EFAULT;
		raddr += n;
		rlen -= n;
		x->lv.base += n;
		x->lv.len -= n;
		x->left -= n;
		x->done += n;
	}
	return 0;
}

static long process_vm_rw(uint64_t pid, uint64_t lvec, uint64_t liovcnt, uint64_t rvec,
			  uint64_t riovcnt, uint64_t flags, bool write)
{
	struct xfer x = {.write = write,
			 .local = {.uarr = lvec, .cnt = liovcnt, .batch_first = UINT64_MAX},
			 .left = MAX_RW_COUNT};
	struct iov_cursor remote = {.uarr = rvec, .cnt = riovcnt, .batch_first = UINT64_MAX};
	struct iovec_user rv;
	uint64_t ltotal, rtotal, i;
	long err;

	if (flags)
		return -EINVAL;
	err = iov_check(&x.local, true, &ltotal);
	if (err || !ltotal)
		return err;
	err = iov_check(&remote, false, &rtotal);
	if (err || !rtotal)
		return err;
	x.mm = target_mm((int)pid);
	if (!x.mm)
		return -ESRCH;
	for (i = 0, err = 0; i < riovcnt && !err && x.left && local_next(&x); i++) {
		if (iov_get(&remote, i, &rv))
			return x.done ? (long)x.done : -EFAULT;
		err = xfer_remote(&x, rv.base, rv.len);
	}
	return x.done ? (long)x.done : err;
}

SYSCALL_DEFINE6(process_vm_readv, uint64_t, pid, uint64_t, lvec, uint64_t, liovcnt, uint64_t, rvec,
		uint64_t, riovcnt, uint64_t, flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, false);
}

SYSCALL_DEFINE6(process_vm_writev, uint64_t, pid, uint64_t, lvec, uint64_t, liovcnt, uint64_t, rvec,
		uint64_t, riovcnt, uint64_t, flags)
{
	return process_vm_rw(pid, lvec, liovcnt, rvec, riovcnt, flags, true);
}
