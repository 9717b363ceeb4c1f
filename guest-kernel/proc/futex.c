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

/* futex(uaddr, op, val, timeout or val2, uaddr2, val3) */
SYSCALL(futex)
{
	uint32_t op = (uint32_t)a1, cmd = op & FUTEX_CMD_MASK, val = (uint32_t)a2;
	bool private = (op & FUTEX_PRIVATE_FLAG) != 0, realtime = (op & FUTEX_CLOCK_REALTIME) != 0;

	if (a0 & 3)
		return -EINVAL;
	if (realtime && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(a0, val, a3, FUTEX_BITSET_MATCH_ANY, false, private, realtime);
	case FUTEX_WAIT_BITSET:
		return futex_wait(a0, val, a3, (uint32_t)a5, true, private, realtime);
	case FUTEX_WAKE:
		return futex_wake_user(a0, val, FUTEX_BITSET_MATCH_ANY, private);
	case FUTEX_WAKE_BITSET:
		if (!(uint32_t)a5)
			return -EINVAL;
		return futex_wake_user(a0, val, (uint32_t)a5, private);
	case FUTEX_REQUEUE:
		return futex_requeue(a0, val, (uint32_t)a3, a4, false, 0, private);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(a0, val, (uint32_t)a3, a4, true, (uint32_t)a5, private);
	default:
		return -ENOSYS;
	}
}
