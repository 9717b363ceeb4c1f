/*
 * File locks (lock.h).  Each lock is a record [start, end] (end inclusive,
 * LOCK_EOF: to the end of any file) on its inode's list; an owner's record
 * locks never overlap each other (setting one trims, splits or merges what
 * the owner held, as Linux does), so F_GETLK answers with real ranges.
 * Blocked setters are listed (on their kernel stacks, as futex waiters) so
 * a POSIX wait that would close a cycle of waits is refused with EDEADLK.
 */
#include "fs/lock.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"

#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define LOCK_EOF ((uint64_t)INT64_MAX) /* Linux's OFFSET_MAX */
#define DEADLOCK_STEPS 16               /* Linux's MAX_DEADLK_ITERATIONS: longer cycles pass */

enum lock_kind { KIND_POSIX, KIND_OFD, KIND_FLOCK };

struct file_lock {
	struct file_lock *next;
	uint64_t start, end;
	const void *owner; /* POSIX: the struct files; OFD and flock: the struct file */
	int pid;           /* F_GETLK's l_pid: the POSIX locker's tgid, -1 for OFD */
	uint8_t type;      /* F_RDLCK or F_WRLCK */
	uint8_t kind;      /* enum lock_kind */
};

struct flock_user {
	int16_t type, whence;
	int32_t pad;
	int64_t start, len;
	int32_t pid, pad2;
};
_Static_assert(sizeof(struct flock_user) == 32, "struct flock of x86-64 Linux");

/* A blocked setter: what it asked for, and by whom. */
struct lock_waiter {
	struct lock_waiter *next;
	const struct inode *inode;
	struct file_lock want;
};

static struct lock_waiter *waiters;

static bool is_record(const struct file_lock *l)
{
	return l->kind != KIND_FLOCK;
}

/* l stands in the way of want: another owner, the same domain, overlapping, one exclusive. */
static bool conflicts(const struct file_lock *l, const struct file_lock *want)
{
	return l->owner != want->owner && is_record(l) == is_record(want) &&
	       l->start <= want->end && want->start <= l->end &&
	       (l->type == F_WRLCK || want->type == F_WRLCK);
}

static struct file_lock *first_conflict(const struct inode *n, const struct file_lock *want)
{
	struct file_lock *l;

	for (l = n->locks; l; l = l->next)
		if (conflicts(l, want))
			return l;
	return 0;
}

/*
 * Would want's owner, waiting for blocker, wait in a cycle?  Follows POSIX
 * owners only: blocker's owner waits for a lock whose owner waits ... back
 * to want's owner.
 */
static bool deadlock(const struct file_lock *want, const struct file_lock *blocker)
{
	const void *owner = blocker->owner;
	int steps;

	for (steps = 0; steps < DEADLOCK_STEPS; steps++) {
		const struct lock_waiter *w;
		const struct file_lock *next = 0;

		for (w = waiters; w && !next; w = w->next)
			if (w->want.owner == owner && w->want.kind == KIND_POSIX)
				next = first_conflict(w->inode, &w->want);
		if (!next || next->kind != KIND_POSIX)
			return false;
		if (next->owner == want->owner)
			return true;
		owner = next->owner;
	}
	return false;
}

static void unlink_lock(struct inode *n, struct file_lock *victim)
{
	struct file_lock **pp;

	for (pp = &n->locks; *pp; pp = &(*pp)->next)
		if (*pp == victim) {
			*pp = victim->next;
			break;
		}
	kfree(victim, sizeof(*victim));
}

/*
 * Gives want's owner exactly want over its range (F_UNLCK: nothing there),
 * merging with its locks of the same type that touch it and cutting those
 * of the other type.  No conflict check.  0 or -ENOLCK.
 */
static int apply(struct inode *n, struct file_lock want)
{
	struct file_lock *spare = kzalloc(sizeof(*spare)), *add = kzalloc(sizeof(*add));
	struct file_lock *l, *next;
	bool split_used = false;

	if (!spare || !add) {
		if (spare)
			kfree(spare, sizeof(*spare));
		if (add)
			kfree(add, sizeof(*add));
		return -ENOLCK;
	}
	for (l = n->locks; l; l = next) {
		bool touches = (want.start == 0 || l->end >= want.start - 1) &&
			       (want.end == LOCK_EOF || l->start <= want.end + 1);
		bool overlaps = l->start <= want.end && want.start <= l->end;

		next = l->next;
		if (l->owner != want.owner || l->kind != want.kind)
			continue;
		if (want.type != F_UNLCK && l->type == want.type && touches) {
			if (l->start < want.start)
				want.start = l->start;
			if (l->end > want.end)
				want.end = l->end;
			unlink_lock(n, l);
		} else if (overlaps && l->start < want.start && l->end > want.end) {
			*spare = *l; /* the part after the hole */
			spare->start = want.end + 1;
			spare->next = l->next;
			l->next = spare;
			l->end = want.start - 1;
			split_used = true;
			next = spare->next;
		} else if (overlaps && l->start < want.start) {
			l->end = want.start - 1;
		} else if (overlaps && l->end > want.end) {
			l->start = want.end + 1;
		} else if (overlaps) {
			unlink_lock(n, l);
		}
	}
	if (!split_used)
		kfree(spare, sizeof(*spare));
	if (want.type == F_UNLCK) {
		kfree(add, sizeof(*add));
	} else {
		*add = want;
		add->next = n->locks;
		n->locks = add;
	}
	wake_up(&n->locks);
	return 0;
}

static void unlink_waiter(struct lock_waiter *w)
{
	struct lock_waiter **pp;

	for (pp = &waiters; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			return;
		}
}

/* Sets want on n, waiting when asked: 0 or -errno (EAGAIN, EWOULDBLOCK for flock, EDEADLK). */
static long set_lock(struct inode *n, const struct file_lock *want, bool wait)
{
	for (;;) {
		struct file_lock *blocker = want->type == F_UNLCK ? 0 : first_conflict(n, want);
		struct lock_waiter w = {.inode = n, .want = *want};
		int r;

		if (!blocker)
			return apply(n, *want);
		if (!wait)
			return -EAGAIN;
		if (want->kind == KIND_POSIX && blocker->kind == KIND_POSIX && deadlock(want, blocker))
			return -EDEADLK;
		w.next = waiters;
		waiters = &w;
		r = sched_block(&n->locks, 0, true);
		unlink_waiter(&w);
		if (r == -EINTR && signal_pending(current))
			return -ERESTARTSYS;
	}
}

/* The range a struct flock names, from f's position or size: 0 or -EINVAL / -EOVERFLOW. */
static int flock_range(const struct file *f, const struct flock_user *fl, struct file_lock *l)
{
	int64_t base, start;

	if (fl->whence == SEEK_SET)
		base = 0;
	else if (fl->whence == SEEK_CUR)
		base = (int64_t)f->pos;
	else if (fl->whence == SEEK_END)
		base = (int64_t)f->inode->size;
	else
		return -EINVAL;
	if (fl->start > 0 && base > INT64_MAX - fl->start)
		return -EOVERFLOW;
	start = base + fl->start;
	if (start < 0)
		return -EINVAL;
	if (fl->len > 0) {
		if (fl->len - 1 > INT64_MAX - start)
			return -EOVERFLOW;
		l->start = (uint64_t)start;
		l->end = (uint64_t)(start + fl->len - 1);
	} else if (fl->len == 0) {
		l->start = (uint64_t)start;
		l->end = LOCK_EOF;
	} else {
		if (start + fl->len < 0)
			return -EINVAL;
		l->start = (uint64_t)(start + fl->len);
		l->end = (uint64_t)start - 1;
	}
	return 0;
}

long lock_fcntl(struct file *f, unsigned cmd, uint64_t uflock)
{
	bool ofd = cmd >= F_OFD_GETLK;
	struct flock_user fl;
	struct file_lock want = {0}, *blocker;
	int err;

	if (copy_from_user(&fl, uflock, sizeof(fl)))
		return -EFAULT;
	if (f->flags & O_PATH)
		return -EBADF;
	if (fl.type != F_RDLCK && fl.type != F_WRLCK && fl.type != F_UNLCK)
		return -EINVAL;
	if (ofd && fl.pid)
		return -EINVAL;
	err = flock_range(f, &fl, &want);
	if (err)
		return err;
	want.type = (uint8_t)fl.type;
	want.kind = ofd ? KIND_OFD : KIND_POSIX;
	want.owner = ofd ? (const void *)f : (const void *)&current->files->t;
	want.pid = ofd ? -1 : current->tgid;
	if (cmd == F_GETLK || cmd == F_OFD_GETLK) {
		if (fl.type == F_UNLCK)
			return -EINVAL;
		blocker = first_conflict(f->inode, &want);
		if (!blocker) {
			fl.type = F_UNLCK;
		} else {
			fl.type = blocker->type;
			fl.whence = SEEK_SET;
			fl.start = (int64_t)blocker->start;
			fl.len = blocker->end == LOCK_EOF ? 0 : (int64_t)(blocker->end - blocker->start + 1);
			fl.pid = blocker->pid;
		}
		return copy_to_user(uflock, &fl, sizeof(fl));
	}
	if ((fl.type == F_RDLCK && !file_readable(f)) || (fl.type == F_WRLCK && !file_writable(f)))
		return -EBADF;
	return set_lock(f->inode, &want, cmd == F_SETLKW || cmd == F_OFD_SETLKW);
}

long lock_flock(struct file *f, unsigned op)
{
	unsigned cmd = op & ~(unsigned)LOCK_NB;
	struct file_lock want = {.start = 0, .end = LOCK_EOF, .owner = f, .pid = -1,
				 .kind = KIND_FLOCK};
	struct file_lock *l;

	if (cmd != LOCK_SH && cmd != LOCK_EX && cmd != LOCK_UN)
		return -EINVAL;
	if (f->flags & O_PATH)
		return -EBADF;
	want.type = cmd == LOCK_SH ? F_RDLCK : cmd == LOCK_EX ? F_WRLCK : F_UNLCK;
	/* Linux converts by dropping the old lock first: a refused conversion leaves none. */
	for (l = f->inode->locks; l; l = l->next)
		if (l->owner == f && l->kind == KIND_FLOCK)
			break;
	if (l && l->type == want.type)
		return 0;
	if (l) {
		unlink_lock(f->inode, l);
		wake_up(&f->inode->locks);
	}
	if (want.type == F_UNLCK)
		return 0;
	return set_lock(f->inode, &want, !(op & LOCK_NB)); /* -EAGAIN is EWOULDBLOCK */
}

/* Drops every lock of owner and kind on n (kind < 0: OFD and flock alike). */
static void drop(struct inode *n, const void *owner, int kind)
{
	struct file_lock *l, *next;
	bool any = false;

	for (l = n->locks; l; l = next) {
		next = l->next;
		if (l->owner == owner && (kind >= 0 ? l->kind == kind : l->kind != KIND_POSIX)) {
			unlink_lock(n, l);
			any = true;
		}
	}
	if (any)
		wake_up(&n->locks);
}

void lock_close(struct file *f, const void *table)
{
	if (f->inode->locks)
		drop(f->inode, table, KIND_POSIX);
}

void lock_release_file(struct file *f)
{
	if (f->inode->locks)
		drop(f->inode, f, -1);
}
