/*
 * futex(2).  A waiter is a record on its own kernel stack, linked into one
 * list while it sleeps; the key is the address space and the user address
 * of the word (FUTEX_PRIVATE_FLAG or not: a word in MAP_SHARED memory,
 * anonymous or of a /tmp file, is keyed by its physical page instead, so
 * processes mapping it at different addresses meet).  One CPU and a
 * non-preemptible kernel: the value check and the enqueue cannot race with a
 * wake.
 */
#include "mm/layout.h"
#include "mm/pgtable.h"
#include "mm/upt.h"
#include "proc/futex.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

struct futex_key {
	const void *space; /* the mm, or NULL for a physical key */
	uint64_t addr;     /* user address, or physical address */
};

struct futex_waiter {
	struct futex_key key;
	uint32_t bitset;
	struct task *task;
	bool woken;
	bool pi;         /* a LOCK_PI waiter, for the owner tid below */
	bool granted;    /* UNLOCK_PI handed it the lock */
	bool owner_died; /* woken because owner exited holding the lock */
	int owner;
	struct futex_waiter *next;
};

static struct futex_waiter *waiters;

static bool key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->space == b->space && a->addr == b->addr;
}

/* Shared futex words in MAP_SHARED memory are keyed by their frame. */
static struct futex_key futex_key_of(struct mm *mm, uint64_t uaddr, bool private)
{
	struct futex_key k = {mm, uaddr};
	uint64_t *pte;

	if (!private && mm) {
		pte = upt_pte(mm, uaddr, false);
		if (pte && (*pte & PTE_P)) {
			int i = vma_find(&mm->vmas, uaddr);
			uint32_t kind = i >= 0 ? mm->vmas.v[i].kind : VMA_ANON;

			if ((kind == VMA_ANON_SHARED && !(*pte & PTE_SW_NOFREE)) ||
			    kind == VMA_FILE_SHARED) {
				k.space = 0;
				k.addr = (*pte & PTE_ADDR_MASK) | (uaddr & (PAGE_SIZE - 1));
			}
		}
	}
	return k;
}

static void unlink_waiter(struct futex_waiter *w)
{
	struct futex_waiter **pp;

	for (pp = &waiters; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			return;
		}
}

static unsigned wake_key(const struct futex_key *k, unsigned n, uint32_t bitset)
{
	struct futex_waiter **pp = &waiters;
	unsigned woken = 0;

	while (*pp && woken < n) {
		struct futex_waiter *w = *pp;

		if (key_eq(&w->key, k) && (w->bitset & bitset)) {
			*pp = w->next;
			w->woken = true;
			wake_up(w);
			woken++;
		} else {
			pp = &w->next;
		}
	}
	return woken;
}

unsigned futex_wake(struct mm *mm, uint64_t uaddr, unsigned n)
{
	struct futex_key k = futex_key_of(mm, uaddr, false);
	unsigned woken = wake_key(&k, n, FUTEX_BITSET_MATCH_ANY);

	if (k.space != mm) {
		struct futex_key pk = {mm, uaddr};

		woken += wake_key(&pk, n - woken, FUTEX_BITSET_MATCH_ANY);
	}
	return woken;
}

struct user_timespec {
	int64_t tv_sec, tv_nsec;
};

/* The deadline in CLOCK_MONOTONIC ns: relative (WAIT) or absolute (WAIT_BITSET). */
static long timeout_deadline(uint64_t utime, bool absolute, bool realtime, uint64_t *deadline)
{
	struct user_timespec ts;
	uint64_t ns, now;

	*deadline = 0;
	if (!utime)
		return 0;
	if (copy_from_user(&ts, utime, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
		return -EINVAL;
	ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	now = time_monotonic_ns();
	if (!absolute) {
		*deadline = now + ns;
	} else if (realtime) {
		uint64_t rt = time_realtime_ns();

		*deadline = ns > rt ? now + (ns - rt) : now;
	} else {
		*deadline = ns;
	}
	if (!*deadline)
		*deadline = 1;
	return 0;
}

static long futex_wait(uint64_t uaddr, uint32_t val, uint64_t utime, uint32_t bitset, bool bitset_op,
		       bool private, bool realtime)
{
	struct futex_waiter w = {0};
	uint64_t deadline;
	uint32_t cur;
	long err;
	int r;

	if (!bitset)
		return -EINVAL;
	err = timeout_deadline(utime, bitset_op, realtime, &deadline);
	if (err)
		return err;
	if (copy_from_user(&cur, uaddr, sizeof(cur)))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	w.key = futex_key_of(current->mm, uaddr, private);
	w.bitset = bitset;
	w.task = current;
	w.next = waiters;
	waiters = &w;
	r = sched_block(&w, deadline, true);
	if (w.woken)
		return 0;
	unlink_waiter(&w);
	if (r == -ETIMEDOUT)
		return -ETIMEDOUT;
	return -ERESTARTSYS;
}

static long futex_requeue(uint64_t uaddr, uint32_t nwake, uint32_t nmove, uint64_t uaddr2,
			  bool cmp, uint32_t val3, bool private)
{
	struct futex_key k1 = futex_key_of(current->mm, uaddr, private);
	struct futex_key k2 = futex_key_of(current->mm, uaddr2, private);
	struct futex_waiter *w;
	unsigned woken, moved = 0;

	if (cmp) {
		uint32_t cur;

		if (copy_from_user(&cur, uaddr, sizeof(cur)))
			return -EFAULT;
		if (cur != val3)
			return -EAGAIN;
	}
	woken = wake_key(&k1, nwake, FUTEX_BITSET_MATCH_ANY);
	for (w = waiters; w && moved < nmove; w = w->next)
		if (key_eq(&w->key, &k1)) {
			w->key = k2;
			moved++;
		}
	return woken + moved;
}

static long futex_wake_user(uint64_t uaddr, uint32_t n, uint32_t bitset, bool private)
{
	struct futex_key k = futex_key_of(current->mm, uaddr, private);

	/* Linux checks the count after each wake: 0 wakes one, as 1 does. */
	return wake_key(&k, n ? n : 1, bitset);
}

/*
 * PI futexes (FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI, UNLOCK_PI).  The word
 * holds the owner's tid, FUTEX_WAITERS while someone may sleep on it and
 * FUTEX_OWNER_DIED once an owner died holding it.  There is one CPU and no
 * priorities, so the "inheritance" (boosting the owner) has nothing to do:
 * what is kept is the ownership protocol.  Unlock hands the lock straight to
 * the oldest waiter (word = its tid | FUTEX_WAITERS, as Linux's
 * wake_futex_pi); a waiter whose owner exits holding it is woken and
 * takes the word over (FUTEX_OWNER_DIED only if the robust walk set it).
 * The requeue-PI pair is not implemented and answers -ENOSYS.
 */
#define FUTEX_LOCK_PI 6
#define FUTEX_UNLOCK_PI 7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_LOCK_PI2 13

static int get_word(uint64_t uaddr, uint32_t *v)
{
	return copy_from_user(v, uaddr, sizeof(*v)) ? -EFAULT : 0;
}

static int put_word(uint64_t uaddr, uint32_t v)
{
	return copy_to_user(uaddr, &v, sizeof(v)) ? -EFAULT : 0;
}

/* The oldest PI waiter on k (the list is newest first), or NULL. */
static struct futex_waiter *pi_first_waiter(const struct futex_key *k)
{
	struct futex_waiter *w, *first = 0;

	for (w = waiters; w; w = w->next)
		if (w->pi && key_eq(&w->key, k))
			first = w;
	return first;
}

static long futex_lock_pi(uint64_t uaddr, uint64_t utime, bool trylock, bool realtime,
			  bool private)
{
	struct futex_waiter w = {0};
	uint32_t tid = (uint32_t)current->pid, cur, owner;
	struct task *o;
	uint64_t deadline = 0;
	long err;
	int r;

	if (!trylock) {
		err = timeout_deadline(utime, true, realtime, &deadline);
		if (err)
			return err;
	}
	for (;;) {
		if (get_word(uaddr, &cur))
			return -EFAULT;
		owner = cur & FUTEX_TID_MASK;
		if (owner == tid)
			return -EDEADLK;
		if (!owner || (w.owner_died && owner == (uint32_t)w.owner)) {
			/* Free, or its owner died while we waited: ours, OWNER_DIED kept (Linux). */
			uint32_t v = tid | (cur & FUTEX_OWNER_DIED);
			struct futex_key k = futex_key_of(current->mm, uaddr, private);

			if (pi_first_waiter(&k))
				v |= FUTEX_WAITERS;
			return put_word(uaddr, v);
		}
		o = task_find((int)owner);
		if (!o || o->state == TASK_ZOMBIE)
			return -ESRCH; /* no such owner, or it exited without the robust list */
		if (put_word(uaddr, cur | FUTEX_WAITERS))
			return -EFAULT;
		if (trylock)
			return -EAGAIN; /* Linux: -EWOULDBLOCK, the waiters bit set */
		w.key = futex_key_of(current->mm, uaddr, private);
		w.bitset = FUTEX_BITSET_MATCH_ANY;
		w.task = current;
		w.pi = true;
		w.owner = (int)owner;
		w.woken = w.granted = w.owner_died = false;
		w.next = waiters;
		waiters = &w;
		r = sched_block(&w, deadline, true);
		if (w.granted)
			return 0;
		if (!w.woken)
			unlink_waiter(&w);
		if (w.woken)
			continue; /* owner died, or a robust-list wake: look again */
		if (r == -ETIMEDOUT)
			return -ETIMEDOUT;
		return -ERESTARTNOINTR; /* Linux restarts an interrupted LOCK_PI */
	}
}

static long futex_unlock_pi(uint64_t uaddr, bool private)
{
	struct futex_key k = futex_key_of(current->mm, uaddr, private);
	struct futex_waiter *w;
	uint32_t cur;

	if (get_word(uaddr, &cur))
		return -EFAULT;
	if ((cur & FUTEX_TID_MASK) != (uint32_t)current->pid)
		return -EPERM;
	w = pi_first_waiter(&k);
	if (!w)
		return put_word(uaddr, 0);
	if (put_word(uaddr, (uint32_t)w->task->pid | FUTEX_WAITERS))
		return -EFAULT;
	unlink_waiter(w);
	w->woken = w->granted = true;
	wake_up(w);
	return 0;
}

void futex_pi_owner_exit(int tid)
{
	struct futex_waiter **pp = &waiters;

	while (*pp) {
		struct futex_waiter *w = *pp;

		if (w->pi && w->owner == tid) {
			*pp = w->next;
			w->woken = w->owner_died = true;
			wake_up(w);
		} else {
			pp = &w->next;
		}
	}
}

/* futex(uaddr, op, val, timeout or val2, uaddr2, val3) */
SYSCALL_DEFINE6(futex, uint64_t, uaddr, uint32_t, op, uint32_t, val, uint64_t, utime, uint64_t,
		uaddr2, uint32_t, val3)
{
	uint32_t cmd = op & FUTEX_CMD_MASK;
	bool private = (op & FUTEX_PRIVATE_FLAG) != 0, realtime = (op & FUTEX_CLOCK_REALTIME) != 0;

	if (uaddr & 3)
		return -EINVAL;
	if (realtime && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, val, utime, FUTEX_BITSET_MATCH_ANY, false, private, realtime);
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, val, utime, val3, true, private, realtime);
	case FUTEX_WAKE:
		return futex_wake_user(uaddr, val, FUTEX_BITSET_MATCH_ANY, private);
	case FUTEX_WAKE_BITSET:
		if (!val3)
			return -EINVAL;
		return futex_wake_user(uaddr, val, val3, private);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, val, (uint32_t)utime, uaddr2, false, 0, private);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, val, (uint32_t)utime, uaddr2, true, val3, private);
	case FUTEX_LOCK_PI: /* absolute CLOCK_REALTIME, as Linux */
		return futex_lock_pi(uaddr, utime, false, true, private);
	case FUTEX_LOCK_PI2:
		return futex_lock_pi(uaddr, utime, false, realtime, private);
	case FUTEX_TRYLOCK_PI:
		return futex_lock_pi(uaddr, 0, true, false, private);
	case FUTEX_UNLOCK_PI:
		return futex_unlock_pi(uaddr, private);
	default:
		return -ENOSYS;
	}
}
