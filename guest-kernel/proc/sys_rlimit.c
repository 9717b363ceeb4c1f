/*
 * Resource limits, accounting and priorities (rlimit.h): getrlimit,
 * setrlimit, prlimit64, getrusage, times, getpriority, setpriority, with
 * Linux's rules (kernel/sys.c).
 *
 * Time: each thread's CPU time is the clock between its switches in and
 * out; the user/system split follows the timer's samples of where it
 * found the thread (Linux's cputime_adjust), all user time when the timer
 * never sampled it (the timer runs only while two tasks compete).
 */
#include "arch/x86_64/percpu.h"
#include "lib/string.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "proc/rlimit.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1
#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2
#define NICE_MIN (-20)
#define NICE_MAX 19
#define NR_OPEN FD_MAX /* Linux's fs.nr_open: no NOFILE limit above the table */

uint64_t rlimit_cur(const struct task *t, unsigned res)
{
	return t->group_leader->res.rlim[res].cur;
}

void rlimit_init(struct task *init)
{
	unsigned i;

	for (i = 0; i < RLIM_NLIMITS; i++)
		init->res.rlim[i] = (struct rlimit64){RLIM_INFINITY, RLIM_INFINITY};
	init->res.rlim[RLIMIT_STACK].cur = STACK_LIMIT;
	init->res.rlim[RLIMIT_CORE].cur = 0;
	init->res.rlim[RLIMIT_NPROC] = (struct rlimit64){TASK_MAX, TASK_MAX};
	init->res.rlim[RLIMIT_NOFILE] = (struct rlimit64){FD_MAX, NR_OPEN};
	init->res.rlim[RLIMIT_MEMLOCK] = (struct rlimit64){8ull << 20, 8ull << 20};
	init->res.rlim[RLIMIT_SIGPENDING] = (struct rlimit64){TASK_MAX * 4, TASK_MAX * 4};
	init->res.rlim[RLIMIT_MSGQUEUE] = (struct rlimit64){819200, 819200};
	init->res.rlim[RLIMIT_NICE] = (struct rlimit64){0, 0};
	init->res.rlim[RLIMIT_RTPRIO] = (struct rlimit64){0, 0};
	init->res.acct.since_ns = time_monotonic_ns();
	init->res.acct.faults_at_in = cpu0.nr_page_faults;
}

void rlimit_fork(struct task *child, const struct task *parent)
{
	memcpy(child->res.rlim, parent->group_leader->res.rlim, sizeof(child->res.rlim));
	child->res.nice = parent->res.nice;
}

/* --- accounting --- */

/* Page faults since t came on the CPU (the CPU's count restarts at a region's start). */
static uint64_t faults_since(const struct task *t)
{
	uint64_t now = cpu0.nr_page_faults;

	return now >= t->res.acct.faults_at_in ? now - t->res.acct.faults_at_in : now;
}

uint64_t acct_out(struct task *t, bool voluntary)
{
	struct task_acct *a = &t->res.acct;
	uint64_t now = time_monotonic_ns();

	a->run_ns += now - a->since_ns;
	a->minflt += faults_since(t);
	if (voluntary)
		a->nvcsw++;
	else
		a->nivcsw++;
	return now;
}

void acct_in(struct task *t, uint64_t now)
{
	t->res.acct.since_ns = now ? now : time_monotonic_ns();
	t->res.acct.faults_at_in = cpu0.nr_page_faults;
}

void acct_tick(bool user)
{
	if (user)
		current->res.acct.user_ticks++;
	else
		current->res.acct.sys_ticks++;
}

static uint64_t maxrss_kb(const struct task *t)
{
	return t->mm ? t->mm->rss * 4 : 0;
}

/* One thread's use so far (current's up to now). */
static void thread_sum(const struct task *t, struct acct_sum *s)
{
	const struct task_acct *a = &t->res.acct;
	uint64_t run = a->run_ns, minflt = a->minflt, ticks = a->user_ticks + a->sys_ticks;
	uint64_t stime;

	if (t == current) {
		run += time_monotonic_ns() - a->since_ns;
		minflt += faults_since(t);
	}
	/* run / ticks first: no 128-bit division in a freestanding kernel (ns are small enough). */
	stime = ticks ? run / ticks * a->sys_ticks + run % ticks * a->sys_ticks / ticks : 0;
	s->utime_ns += run - stime;
	s->stime_ns += stime;
	s->nvcsw += a->nvcsw;
	s->nivcsw += a->nivcsw;
	s->minflt += minflt;
	if (maxrss_kb(t) > s->maxrss_kb)
		s->maxrss_kb = maxrss_kb(t);
}

static void sum_add(struct acct_sum *s, const struct acct_sum *o)
{
	s->utime_ns += o->utime_ns;
	s->stime_ns += o->stime_ns;
	s->nvcsw += o->nvcsw;
	s->nivcsw += o->nivcsw;
	s->minflt += o->minflt;
	if (o->maxrss_kb > s->maxrss_kb)
		s->maxrss_kb = o->maxrss_kb;
}

void acct_process(const struct task *leader, bool self, bool children, struct acct_sum *s)
{
	unsigned i;

	memset(s, 0, sizeof(*s));
	if (self) {
		for (i = 0; i < task_slots; i++) {
			const struct task *t = &task_table[i];

			if (t->tgid == leader->tgid && t->state != TASK_UNUSED &&
			    t->state != TASK_DEAD && t->state != TASK_ZOMBIE)
				thread_sum(t, s);
		}
		sum_add(s, &leader->res.dead);
	}
	if (children) {
		uint64_t rss = s->maxrss_kb;

		sum_add(s, &leader->res.children);
		/* Linux: RUSAGE_CHILDREN's maxrss is the largest child's, RUSAGE_BOTH the larger. */
		s->maxrss_kb = self && rss > leader->res.children.maxrss_kb
				       ? rss
				       : leader->res.children.maxrss_kb;
	}
}

void acct_thread_exit(struct task *t)
{
	struct acct_sum s = {0};

	thread_sum(t, &s);
	sum_add(&t->group_leader->res.dead, &s);
	/* Counted now: the switch away from the dead thread must not count it again. */
	memset(&t->res.acct, 0, sizeof(t->res.acct));
	t->res.acct.since_ns = time_monotonic_ns();
	t->res.acct.faults_at_in = cpu0.nr_page_faults;
}

void acct_reap(struct task *reaper, const struct task *c)
{
	struct acct_sum s;

	acct_process(c, true, true, &s);
	sum_add(&reaper->group_leader->res.children, &s);
}

struct ktimeval {
	int64_t tv_sec, tv_usec;
};

struct krusage {
	struct ktimeval utime, stime;
	int64_t maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	int64_t msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};
_Static_assert(sizeof(struct krusage) == 144, "struct rusage of x86-64 Linux");

static struct ktimeval tv_of(uint64_t ns)
{
	return (struct ktimeval){(int64_t)(ns / 1000000000ull), (int64_t)(ns % 1000000000ull / 1000)};
}

long acct_rusage_to_user(const struct acct_sum *s, uint64_t uaddr)
{
	struct krusage ru;

	memset(&ru, 0, sizeof(ru));
	ru.utime = tv_of(s->utime_ns);
	ru.stime = tv_of(s->stime_ns);
	ru.maxrss = (int64_t)s->maxrss_kb;
	ru.minflt = (int64_t)s->minflt;
	/* majflt stays 0: nothing here is ever read from a device. */
	ru.nvcsw = (int64_t)s->nvcsw;
	ru.nivcsw = (int64_t)s->nivcsw;
	return copy_to_user(uaddr, &ru, sizeof(ru));
}

SYSCALL_DEFINE2(getrusage, int, who, uint64_t, ru)
{
	struct acct_sum s = {0};

	if (who == RUSAGE_THREAD)
		thread_sum(current, &s);
	else if (who == RUSAGE_SELF || who == RUSAGE_CHILDREN)
		acct_process(current->group_leader, who == RUSAGE_SELF, who == RUSAGE_CHILDREN, &s);
	else
		return -EINVAL;
	return acct_rusage_to_user(&s, ru);
}

/* times(buf): clock ticks (USER_HZ) used; returns ticks since boot. */
SYSCALL_DEFINE1(times, uint64_t, tbuf)
{
	struct acct_sum self, kids;
	uint64_t tms[4];

	if (tbuf) {
		acct_process(current->group_leader, true, false, &self);
		acct_process(current->group_leader, false, true, &kids);
		tms[0] = self.utime_ns / NSEC_PER_TICK;
		tms[1] = self.stime_ns / NSEC_PER_TICK;
		tms[2] = kids.utime_ns / NSEC_PER_TICK;
		tms[3] = kids.stime_ns / NSEC_PER_TICK;
		if (copy_to_user(tbuf, tms, sizeof(tms)))
			return -EFAULT;
	}
	return (long)(time_monotonic_ns() / NSEC_PER_TICK);
}

/* --- limits --- */

/* Linux's prlimit permission: privileged, or every id of the target is the caller's. */
static bool may_change(const struct task *t)
{
	const struct cred *c = &current->cred, *o = &t->cred;

	return t->tgid == current->tgid || cred_capable(current) ||
	       (c->uid == o->uid && c->uid == o->euid && c->uid == o->suid && c->gid == o->gid &&
		c->gid == o->egid && c->gid == o->sgid);
}

static long do_prlimit(struct task *t, unsigned res, const struct rlimit64 *nl,
		       struct rlimit64 *old)
{
	struct rlimit64 *r;

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	r = &t->group_leader->res.rlim[res];
	if (nl) {
		if (nl->cur > nl->max)
			return -EINVAL;
		if (res == RLIMIT_NOFILE && nl->max > NR_OPEN)
			return -EPERM;
		if (nl->max > r->max && !cred_capable(current))
			return -EPERM;
	}
	if (old)
		*old = *r;
	if (nl)
		*r = *nl;
	return 0;
}

SYSCALL_DEFINE2(getrlimit, unsigned, resource, uint64_t, rlim)
{
	struct rlimit64 old;
	long err;

	err = do_prlimit(current, resource, 0, &old);
	return err ?: copy_to_user(rlim, &old, sizeof(old));
}

/* i386 ugetrlimit (191): two u32, anything above 0xffffffff (COMPAT_RLIM_INFINITY) clamped. */
COMPAT_SYSCALL_DEFINE2(ugetrlimit, unsigned, resource, uint64_t, rlim)
{
	struct rlimit64 old;
	uint32_t r[2];
	long err;

	err = do_prlimit(current, resource, 0, &old);
	if (err)
		return err;
	r[0] = old.cur > UINT32_MAX ? UINT32_MAX : (uint32_t)old.cur;
	r[1] = old.max > UINT32_MAX ? UINT32_MAX : (uint32_t)old.max;
	return copy_to_user(rlim, r, sizeof(r));
}

SYSCALL_DEFINE2(setrlimit, unsigned, resource, uint64_t, rlim)
{
	struct rlimit64 nl;

	if (copy_from_user(&nl, rlim, sizeof(nl)))
		return -EFAULT;
	return do_prlimit(current, resource, &nl, 0);
}

/* prlimit64(pid, resource, new, old) */
SYSCALL_DEFINE4(prlimit64, uint64_t, pid, unsigned, resource, uint64_t, new_rlim, uint64_t,
		old_rlim)
{
	struct rlimit64 nl, old;
	struct task *t = pid ? task_find((int)pid) : current;
	long err;

	if (new_rlim && copy_from_user(&nl, new_rlim, sizeof(nl)))
		return -EFAULT;
	if (!t)
		return -ESRCH;
	if (!may_change(t))
		return -EPERM;
	err = do_prlimit(t, resource, new_rlim ? &nl : 0, old_rlim ? &old : 0);
	if (!err && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/* --- priorities --- */

/* Calls fn on every thread `which`/`who` names; -ESRCH if none, else the first error or 0. */
static bool prio_match(const struct task *t, int which, int who)
{
	switch (which) {
	case PRIO_PROCESS:
		return t->pid == (who ? who : current->pid);
	case PRIO_PGRP:
		return proc_job(t)->pgid == (who ? who : proc_job(current)->pgid);
	case PRIO_USER:
		return t->cred.uid == (uint32_t)(who ? who : (int)current->cred.uid);
	}
	return false;
}

static bool task_live(const struct task *t)
{
	return t->state != TASK_UNUSED && t->state != TASK_DEAD && t->state != TASK_ZOMBIE;
}

/* getpriority: 20 - the lowest nice value found (Linux's biased return), or -ESRCH. */
SYSCALL_DEFINE2(getpriority, int, which, int, who)
{
	int best = NICE_MAX + 1;
	unsigned i;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	for (i = 0; i < task_slots; i++) {
		const struct task *t = &task_table[i];

		if (task_live(t) && prio_match(t, which, who) && t->res.nice < best)
			best = t->res.nice;
	}
	return best > NICE_MAX ? -ESRCH : 20 - best;
}

SYSCALL_DEFINE3(setpriority, int, which, int, who, int, nice)
{
	long err = -ESRCH;
	unsigned i;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	if (nice < NICE_MIN)
		nice = NICE_MIN;
	if (nice > NICE_MAX)
		nice = NICE_MAX;
	for (i = 0; i < task_slots; i++) {
		struct task *t = &task_table[i];

		if (!task_live(t) || !prio_match(t, which, who))
			continue;
		/* Linux set_one_prio: another user's task, or a lower nice value, needs privilege. */
		if (!cred_capable(current) && t->cred.uid != current->cred.euid &&
		    t->cred.euid != current->cred.euid) {
			err = -EPERM;
			continue;
		}
		if (nice < t->res.nice && !cred_capable(current) &&
		    20 - nice > (int)rlimit_cur(current, RLIMIT_NICE)) {
			err = -EACCES;
			continue;
		}
		t->res.nice = nice;
		if (err == -ESRCH)
			err = 0;
	}
	return err;
}
