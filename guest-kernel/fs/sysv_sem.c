/*
 * System V semaphores: semget, semop, semtimedop, semctl (GETVAL, SETVAL,
 * GETALL, SETALL, GETPID, GETNCNT, GETZCNT, IPC_STAT, IPC_SET, IPC_RMID,
 * IPC_INFO, SEM_INFO), to semget(2)/semop(2)/semctl(2).
 *
 * A set's values live in page-sized chunks (up to SEMMSL 32000 per set).
 * semop applies its operations in order, all or nothing: an operation
 * that cannot proceed (a decrement below 0, a wait for zero on a non-zero
 * value) reverts the earlier ones and the caller waits (EAGAIN with
 * IPC_NOWAIT, or at the deadline of semtimedop) on the set, counted in
 * semncnt or semzcnt of that semaphore; any change to the set wakes every
 * waiter, who tries again.  A value past SEMVMX 32767, or an undo
 * adjustment past it, is ERANGE.  A signal ends the wait with EINTR
 * (never restarted, as Linux), the set's removal with EIDRM.  SEM_UNDO
 * keeps one adjustment per (process, set, semaphore) in a table of
 * UNDO_MAX (ENOMEM beyond, as Linux's failed allocation); the process's
 * end applies them, clamped to 0..SEMVMX (sem_exit_process); SETVAL and
 * SETALL clear them for their semaphores, as Linux.  At most SETS_MAX sets
 * (Linux's SEMMNI is 32000): ENOSPC beyond.  Permission bits are stored
 * and shown; only IPC_SET/IPC_RMID check the caller (EPERM).
 */
#include "fs/sysv_ipc.h"
#include "fs/sysv_sem.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time/user_time.h"
#include "kernel.h"

#define SEM_UNDO 0x1000
#define GETPID 11
#define GETVAL 12
#define GETALL 13
#define GETNCNT 14
#define GETZCNT 15
#define SETVAL 16
#define SETALL 17
#define SEM_INFO 19
#define SEMMSL 32000
#define SEMOPM 500
#define SEMVMX 32767
#define SEMAEM SEMVMX
#define SETS_MAX 64
#define UNDO_MAX 256
#define PER_PAGE (PAGE_SIZE / sizeof(struct sem))
#define SEM_PAGES ((SEMMSL + PER_PAGE - 1) / PER_PAGE)

struct semid_ds_user {
	struct ipc_perm_user perm;
	int64_t otime;
	uint64_t unused1;
	int64_t ctime;
	uint64_t unused2, nsems, unused3, unused4;
};
_Static_assert(sizeof(struct semid_ds_user) == 104, "struct semid64_ds of x86-64 Linux");

struct seminfo_user {
	int32_t semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

struct sembuf_user {
	uint16_t num;
	int16_t op, flg;
};
_Static_assert(sizeof(struct sembuf_user) == 6, "struct sembuf");

struct sem {
	int32_t val, pid;
};

/* A task waiting in semop, on its own stack: what it waits for. */
struct sem_waiter {
	struct sem_waiter *next;
	unsigned num;
	bool zero;
};

struct semset {
	bool used;
	int32_t key;
	uint32_t uid, gid, cuid, cgid, mode;
	uint16_t seq;
	int64_t otime, ctime;
	unsigned nsems;
	struct sem *page[SEM_PAGES];
	struct sem_waiter *waiters;
};

struct undo {
	int tgid; /* 0: a free entry */
	struct semset *set;
	uint16_t seq;
	unsigned num;
	int adj;
};

static struct semset sets[SETS_MAX];
static struct undo undos[UNDO_MAX];
#define UNDO(ref) (&undos[(ref) - 1]) /* an undo reference (1 + index) to its entry */

static int set_id(const struct semset *s)
{
	return s->seq * SETS_MAX + (int)(s - sets);
}

static struct semset *set_of(uint64_t id)
{
	struct semset *s;

	if ((int)id < 0)
		return 0;
	s = &sets[(int)id % SETS_MAX];
	return s->used && set_id(s) == (int)id ? s : 0;
}

static struct sem *sem_at(struct semset *s, unsigned i)
{
	return &s->page[i / PER_PAGE][i % PER_PAGE];
}

static void set_free(struct semset *s)
{
	unsigned i;

	for (i = 0; i < SEM_PAGES; i++)
		if (s->page[i])
			kfree(s->page[i], PAGE_SIZE);
	for (i = 0; i < UNDO_MAX; i++)
		if (undos[i].tgid && undos[i].set == s)
			undos[i].tgid = 0;
	s->used = false;
	s->seq++; /* the waiters see it gone: EIDRM */
	memset(s->page, 0, sizeof(s->page));
	s->waiters = 0; /* each finds the set gone and leaves */
	wake_up(s);
}

/* Drops every undo adjustment of semaphore num of s (SETVAL, SETALL). */
static void undo_clear(const struct semset *s, unsigned num)
{
	unsigned i;

	for (i = 0; i < UNDO_MAX; i++)
		if (undos[i].tgid && undos[i].set == s && undos[i].num == num)
			undos[i].adj = 0;
}

static long set_create(int32_t key, unsigned nsems, uint32_t flg)
{
	struct semset *s = 0;
	uint16_t seq;
	unsigned i;

	for (i = 0; i < SETS_MAX && !s; i++)
		if (!sets[i].used)
			s = &sets[i];
	if (!s)
		return -ENOSPC;
	seq = s->seq;
	*s = (struct semset){.used = true, .key = key, .mode = flg & 0777, .seq = seq,
			     .uid = current->cred.euid, .gid = current->cred.egid,
			     .cuid = current->cred.euid, .cgid = current->cred.egid,
			     .ctime = sysv_now_sec(), .nsems = nsems};
	for (i = 0; i * PER_PAGE < nsems; i++) {
		s->page[i] = kzalloc(PAGE_SIZE);
		if (!s->page[i]) {
			set_free(s);
			return -ENOMEM;
		}
	}
	return set_id(s);
}

SYSCALL_DEFINE3(semget, int32_t, key, int, nsems, uint32_t, flg)
{
	unsigned i;

	if (nsems < 0 || nsems > SEMMSL)
		return -EINVAL;
	if (key != IPC_PRIVATE) {
		for (i = 0; i < SETS_MAX; i++) {
			if (!sets[i].used || sets[i].key != key)
				continue;
			if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
				return -EEXIST;
			if ((unsigned)nsems > sets[i].nsems)
				return -EINVAL;
			return set_id(&sets[i]);
		}
		if (!(flg & IPC_CREAT))
			return -ENOENT;
	}
	if (nsems == 0)
		return -EINVAL;
	return set_create(key, (unsigned)nsems, flg);
}

/* The undo reference (UNDO) of (current process, s, num), made when absent; 0: no room. */
static uint16_t undo_get(struct semset *s, unsigned num)
{
	struct undo *free = 0;
	unsigned i;

	for (i = 0; i < UNDO_MAX; i++) {
		struct undo *u = &undos[i];

		if (u->tgid == current->tgid && u->set == s && u->num == num)
			return (uint16_t)(i + 1);
		if (!u->tgid && !free)
			free = u;
	}
	if (free)
		*free = (struct undo){.tgid = current->tgid, .set = s, .seq = s->seq, .num = num};
	return free ? (uint16_t)(free - undos + 1) : 0;
}

/*
 * Applies ops[0..n) to s in order, all or nothing (Linux's
 * perform_atomic_semop): 0, -ERANGE, or -EAGAIN with *blocked the index of
 * the operation that must wait.
 */
static long sem_try(struct semset *s, const struct sembuf_user *ops, const uint16_t *u, unsigned n,
		    unsigned *blocked)
{
	long err = 0;
	unsigned i, j;

	for (i = 0; i < n; i++) {
		struct sem *m = sem_at(s, ops[i].num);
		int r = m->val;

		if ((!ops[i].op && r) || r + ops[i].op < 0) {
			*blocked = i;
			err = -EAGAIN;
			break;
		}
		r += ops[i].op;
		if (r > SEMVMX || (u[i] && (UNDO(u[i])->adj - ops[i].op < -SEMAEM - 1 ||
					    UNDO(u[i])->adj - ops[i].op > SEMAEM))) {
			err = -ERANGE;
			break;
		}
		m->val = r;
		if (u[i])
			UNDO(u[i])->adj -= ops[i].op;
	}
	if (err) {
		for (j = i; j-- > 0;) {
			sem_at(s, ops[j].num)->val -= ops[j].op;
			if (u[j])
				UNDO(u[j])->adj += ops[j].op;
		}
		return err;
	}
	for (i = 0; i < n; i++)
		sem_at(s, ops[i].num)->pid = current->tgid;
	s->otime = sysv_now_sec();
	wake_up(s);
	return 0;
}

/* The bookkeeping semop needs, in one page: the operations and their undo entries. */
struct semop_buf {
	struct sembuf_user ops[SEMOPM];
	uint16_t u[SEMOPM]; /* 1 + the index of each operation's undo entry in undos, 0: none */
};
_Static_assert(sizeof(struct semop_buf) <= PAGE_SIZE, "semop's buffer is one page");

static long do_semop(uint64_t id, uint64_t uops, uint64_t nsops, uint64_t utimeout)
{
	struct semset *s;
	struct semop_buf *b;
	uint64_t deadline = 0;
	unsigned i, blocked;
	long err = 0;

	if (nsops < 1)
		return -EINVAL;
	if (nsops > SEMOPM)
		return -E2BIG;
	if (utimeout) {
		struct user_timespec ts;

		if (copy_from_user(&ts, utimeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
		deadline = time_monotonic_ns() + (uint64_t)ts.tv_sec * 1000000000ull +
			   (uint64_t)ts.tv_nsec;
	}
	b = kzalloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	if (copy_from_user(b->ops, uops, nsops * sizeof(b->ops[0]))) {
		err = -EFAULT;
		goto out;
	}
	s = set_of(id);
	if (!s) {
		err = -EINVAL;
		goto out;
	}
	for (i = 0; i < nsops; i++)
		if (b->ops[i].num >= s->nsems) {
			err = -EFBIG;
			goto out;
		}
	for (i = 0; i < nsops; i++)
		if (b->ops[i].flg & SEM_UNDO) {
			b->u[i] = undo_get(s, b->ops[i].num);
			if (!b->u[i]) {
				err = -ENOMEM;
				goto out;
			}
		}
	for (;;) {
		struct sem_waiter w, **p;
		uint16_t seq = s->seq;
		int r;

		err = sem_try(s, b->ops, b->u, (unsigned)nsops, &blocked);
		if (err != -EAGAIN || (b->ops[blocked].flg & IPC_NOWAIT))
			break;
		w = (struct sem_waiter){.next = s->waiters, .num = b->ops[blocked].num,
					.zero = b->ops[blocked].op == 0};
		s->waiters = &w;
		r = sched_block(s, deadline, true);
		if (s->used && s->seq == seq) {
			for (p = &s->waiters; *p != &w; p = &(*p)->next)
				;
			*p = w.next;
		} else {
			err = -EIDRM;
			break;
		}
		if (r == -EINTR && signal_pending(current)) {
			err = -EINTR;
			break;
		}
		if (r == -ETIMEDOUT) {
			/* One last try: the deadline and a wake may have come together. */
			err = sem_try(s, b->ops, b->u, (unsigned)nsops, &blocked);
			break;
		}
	}
out:
	kfree(b, sizeof(*b));
	return err;
}

SYSCALL_DEFINE3(semop, uint64_t, semid, uint64_t, tsops, uint64_t, nsops)
{
	return do_semop(semid, tsops, nsops, 0);
}

SYSCALL_DEFINE4(semtimedop, uint64_t, semid, uint64_t, tsops, uint64_t, nsops, uint64_t, timeout)
{
	return do_semop(semid, tsops, nsops, timeout);
}

void sem_exit_process(int tgid)
{
	unsigned i;

	for (i = 0; i < UNDO_MAX; i++) {
		struct undo *u = &undos[i];
		struct sem *m;

		if (u->tgid != tgid)
			continue;
		u->tgid = 0;
		if (!u->set->used || u->set->seq != u->seq || !u->adj)
			continue;
		m = sem_at(u->set, u->num);
		m->val += u->adj;
		if (m->val < 0)
			m->val = 0;
		if (m->val > SEMVMX)
			m->val = SEMVMX;
		m->pid = tgid;
		wake_up(u->set);
	}
}

static unsigned waiters_on(const struct semset *s, unsigned num, bool zero)
{
	const struct sem_waiter *w;
	unsigned n = 0;

	for (w = s->waiters; w; w = w->next)
		n += w->num == num && w->zero == zero;
	return n;
}

static bool set_owner(const struct semset *s)
{
	uint32_t euid = current->cred.euid;

	return euid == s->uid || euid == s->cuid || cred_capable(current);
}

static long sem_info(int cmd, uint64_t uaddr)
{
	struct seminfo_user si = {.semmni = SETS_MAX, .semmns = SETS_MAX * SEMMSL,
				  .semmsl = SEMMSL, .semopm = SEMOPM, .semvmx = SEMVMX,
				  .semmnu = UNDO_MAX, .semmap = SETS_MAX * SEMMSL,
				  .semume = SEMOPM, .semusz = 20, .semaem = SEMAEM};
	int max_idx = 0;
	unsigned i;

	for (i = 0; i < SETS_MAX; i++)
		if (sets[i].used)
			max_idx = (int)i;
	if (cmd == SEM_INFO) {
		si.semusz = 0;
		si.semaem = 0;
		for (i = 0; i < SETS_MAX; i++)
			if (sets[i].used) {
				si.semusz++;
				si.semaem += (int32_t)sets[i].nsems;
			}
	}
	if (copy_to_user(uaddr, &si, sizeof(si)))
		return -EFAULT;
	return max_idx;
}

/* GETALL and SETALL: the values as an array of unsigned short. */
static long sem_all(struct semset *s, int cmd, uint64_t uaddr)
{
	uint16_t v[256];
	const unsigned per = ARRAY_SIZE(v);
	unsigned i, j, n;

	for (i = 0; i < s->nsems; i += per) {
		n = s->nsems - i < per ? s->nsems - i : per;
		if (cmd == GETALL) {
			for (j = 0; j < n; j++)
				v[j] = (uint16_t)sem_at(s, i + j)->val;
			if (copy_to_user(uaddr + i * 2, v, n * 2))
				return -EFAULT;
			continue;
		}
		if (copy_from_user(v, uaddr + i * 2, n * 2))
			return -EFAULT;
		for (j = 0; j < n; j++)
			if (v[j] > SEMVMX)
				return -ERANGE;
	}
	if (cmd == SETALL) {
		/* Checked whole first: SETALL changes all or nothing. */
		for (i = 0; i < s->nsems; i += per) {
			n = s->nsems - i < per ? s->nsems - i : per;
			copy_from_user(v, uaddr + i * 2, n * 2);
			for (j = 0; j < n; j++) {
				sem_at(s, i + j)->val = v[j];
				sem_at(s, i + j)->pid = current->tgid;
				undo_clear(s, i + j);
			}
		}
		s->ctime = sysv_now_sec();
		wake_up(s);
	}
	return 0;
}

SYSCALL_DEFINE4(semctl, uint64_t, semid, unsigned, num, uint64_t, ipc_cmd, uint64_t, arg)
{
	struct semset *s;
	struct semid_ds_user ds;
	int cmd = (int)(ipc_cmd & ~(uint64_t)IPC_64), val;

	if (cmd == IPC_INFO || cmd == SEM_INFO)
		return sem_info(cmd, arg);
	s = set_of(semid);
	if (!s)
		return -EINVAL;
	switch (cmd) {
	case GETVAL:
	case GETPID:
	case GETNCNT:
	case GETZCNT:
	case SETVAL:
		if ((int)num < 0 || num >= s->nsems)
			return -EINVAL;
		break;
	default:
		break;
	}
	switch (cmd) {
	case GETVAL:
		return sem_at(s, num)->val;
	case GETPID:
		return sem_at(s, num)->pid;
	case GETNCNT:
		return waiters_on(s, num, false);
	case GETZCNT:
		return waiters_on(s, num, true);
	case SETVAL:
		val = (int)arg;
		if (val < 0 || val > SEMVMX)
			return -ERANGE;
		sem_at(s, num)->val = val;
		sem_at(s, num)->pid = current->tgid;
		undo_clear(s, num);
		s->ctime = sysv_now_sec();
		wake_up(s);
		return 0;
	case GETALL:
	case SETALL:
		return sem_all(s, cmd, arg);
	case IPC_STAT:
		memset(&ds, 0, sizeof(ds));
		ds.perm = (struct ipc_perm_user){.key = s->key, .uid = s->uid, .gid = s->gid,
						 .cuid = s->cuid, .cgid = s->cgid, .mode = s->mode,
						 .seq = s->seq};
		ds.otime = s->otime;
		ds.ctime = s->ctime;
		ds.nsems = s->nsems;
		return copy_to_user(arg, &ds, sizeof(ds));
	case IPC_SET:
		if (copy_from_user(&ds, arg, sizeof(ds)))
			return -EFAULT;
		if (!set_owner(s))
			return -EPERM;
		s->uid = ds.perm.uid;
		s->gid = ds.perm.gid;
		s->mode = ds.perm.mode & 0777;
		s->ctime = sysv_now_sec();
		return 0;
	case IPC_RMID:
		if (!set_owner(s))
			return -EPERM;
		set_free(s);
		return 0;
	default:
		return -EINVAL;
	}
}
