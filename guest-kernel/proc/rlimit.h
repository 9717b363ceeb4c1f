/*
 * Resource limits and accounting (sys_rlimit.c): the limits are per
 * process (the group leader's), inherited by fork and kept by exec, with
 * Linux's defaults and rules; the accounting is per thread, summed for
 * the process and for its reaped children as getrusage and times report.
 *
 * Enforced: RLIMIT_NOFILE (every new descriptor, fs/file.c; its hard
 * limit at most FD_MAX, Linux's fs.nr_open here), RLIMIT_STACK (the stack
 * area's growth, up to the STACK_LIMIT the layout reserves), RLIMIT_NPROC
 * (fork, for other users than root), RLIMIT_SIGPENDING (real-time signals
 * pending per user: signal.c).  The others are stored.
 */
#ifndef EL_PROC_RLIMIT_H
#define EL_PROC_RLIMIT_H

#include "kernel.h"

#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0ull)

struct task;

struct rlimit64 {
	uint64_t cur, max;
};

/*
 * What a thread used: time on the CPU (from the clock at each switch), the
 * timer's samples of where it ran (user or kernel), the switches, and the
 * page faults taken while it ran (the CPU's #PF count at each switch).
 */
struct task_acct {
	uint64_t run_ns, since_ns;
	uint64_t user_ticks, sys_ticks;
	uint64_t nvcsw, nivcsw;
	uint64_t minflt, faults_at_in;
};

/* Sums: threads that ended (in the leader) and reaped children (in the reaper's leader). */
struct acct_sum {
	uint64_t utime_ns, stime_ns, nvcsw, nivcsw, minflt, maxrss_kb;
};

/* A task's share (struct task.res): limits and sums are its leader's, the rest its own. */
struct task_res {
	struct rlimit64 rlim[RLIM_NLIMITS];
	int nice;                    /* -20..19, per thread as on Linux; stored only */
	struct task_acct acct;
	struct acct_sum dead, children;
};

/* What one process used (threads alive and ended), plus its reaped children if `children`. */
void acct_process(const struct task *leader, bool self, bool children, struct acct_sum *s);
/* struct rusage of x86-64 Linux from a sum, to user memory: 0 or -EFAULT. */
long acct_rusage_to_user(const struct acct_sum *s, uint64_t uaddr);

/* The current soft limit of resource res for t's process. */
uint64_t rlimit_cur(const struct task *t, unsigned res);
/* Init's limits: Linux's INIT_RLIMITS. */
void rlimit_init(struct task *init);
/* fork: the child's process takes the parent's limits and nice value; no accounting yet. */
void rlimit_fork(struct task *child, const struct task *parent);

/*
 * The scheduler (sched.c): t leaves the CPU, having blocked (voluntary) or
 * been preempted (returns the clock it read); t gets the CPU at now (0:
 * read the clock: the CPU idled between).  The idle loop's time is nobody's.
 */
uint64_t acct_out(struct task *t, bool voluntary);
void acct_in(struct task *t, uint64_t now);
/* A timer interrupt found current in user mode (true) or in the kernel. */
void acct_tick(bool user);
/* A thread ends: its use goes to its process's sum of ended threads. */
void acct_thread_exit(struct task *t);
/* wait reaped child c (a zombie leader): its use and its children's go to `reaper`'s. */
void acct_reap(struct task *reaper, const struct task *c);

#endif
