/*
 * wait4 and waitid: the children of the caller's thread group that exited
 * (zombies, reaped here), stopped under ptrace, or group-stopped and
 * continued (WUNTRACED/WSTOPPED, WCONTINUED: proc/jobctl.c), as Linux
 * reports them.  A caller with matching children and nothing to report
 * sleeps on its group leader until a child changes state (task_exit,
 * ptrace stops, group stop and continue).
 */
#include "lib/string.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/sched.h"
#include "proc/signal_frame.h"
#include "proc/task_alloc.h"
#include "proc/wait_flags.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define P_ALL 0
#define P_PID 1
#define P_PGID 2
#define P_PIDFD 3

/* What one wait found. */
struct wait_result {
	int pid;
	int wstatus; /* wait4's encoding */
	bool stopped;
	bool continued;
	struct acct_sum ru; /* the child's use, with its children's (wait4's rusage) */
};

/*
 * wait4's pid: > 0 that one, -1 any, 0 the caller's process group, < -1
 * group -pid; waitid's P_PGID comes as WAIT_PGID(pgid).
 */
#define WAIT_PGID(g) (-(g) - 0x40000000) /* below any -pid wait4 can pass on */

static bool wait_matches(const struct task *c, int pid, uint32_t options)
{
	int pgid = pid == 0 ? proc_job(current)->pgid : pid <= WAIT_PGID(0) ? -(pid + 0x40000000)
						       : pid < -1 ? -pid : 0;

	if (pid > 0 && c->tgid != pid && c->pid != pid)
		return false;
	if (pgid && proc_job(c)->pgid != pgid)
		return false;
	/*
	 * __WCLONE: only children that signal their parent with something else
	 * than SIGCHLD.  Not for a tracee of ours: its tracer waits for it
	 * whatever its exit signal (Linux eligible_child), e.g. a child
	 * tracing its own parent, which never signals it on exit.
	 */
	if (!(options & __WALL) && !(c->tracer && c->tracer->tgid == current->tgid) &&
	    ((options & __WCLONE) != 0) != (c->exit_signal != SIGCHLD))
		return false;
	return true;
}

static bool is_child(const struct task *c, const struct task *me)
{
	if (c->state == TASK_UNUSED || c->state == TASK_DEAD)
		return false;
	if (c->tracer && c->tracer->tgid == me->tgid)
		return true;
	return c->parent && c->parent->tgid == me->tgid && c->group_leader == c;
}

/* One pass: 1 found (res filled), 0 children but nothing to report, -ECHILD none. */
static int wait_scan(int pid, uint32_t options, struct wait_result *res)
{
	struct task *me = current;
	bool any = false;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *c = &task_table[i];

		if (!is_child(c, me) || !wait_matches(c, pid, options))
			continue;
		any = true;
		/* A tracee's stops are its tracer's to see; group stops go through jobctl below. */
		if (c->state == TASK_STOPPED && !c->ptrace_stop_reported && c->tracer &&
		    c->tracer->tgid == me->tgid) {
			res->pid = c->pid;
			res->wstatus = W_STOPCODE(c->ptrace_stop_sig);
			res->stopped = true;
			if (!(options & WNOWAIT))
				c->ptrace_stop_reported = true;
			return 1;
		}
		if (!c->tracer || c->tracer->tgid != me->tgid) {
			int k = jobctl_wait_report(c, options, false, &res->wstatus);

			if (k) {
				acct_process(c, true, true, &res->ru);
				res->pid = c->tgid;
				res->stopped = k == 1;
				res->continued = k == 2;
				return 1;
			}
		}
		if (c->state == TASK_ZOMBIE && c->group_dead && (options & WEXITED) &&
		    !ptrace_zombie_hidden(c, me)) {
			res->pid = c->tgid;
			res->wstatus = c->exit_code;
			res->stopped = false;
			acct_process(c, true, true, &res->ru);
			if (!(options & WNOWAIT) && !ptrace_zombie_reaped(c, me)) {
				acct_reap(me, c);
				task_free(c);
			}
			return 1;
		}
	}
	return any ? 0 : -ECHILD;
}

static long wait_common(int pid, uint32_t options, struct wait_result *res)
{
	for (;;) {
		int r = wait_scan(pid, options, res);

		if (r)
			return r < 0 ? r : 1;
		if (options & WNOHANG)
			return 0;
		if (sched_block(current->group_leader, 0, true) == -EINTR) {
			/* A child that ended meanwhile is still reported first (Linux). */
			r = wait_scan(pid, options, res);
			return r ? (r < 0 ? r : 1) : -ERESTARTSYS;
		}
	}
}

/* wait4(pid, int *wstatus, int options, struct rusage *ru) */
SYSCALL_DEFINE4(wait4, int, pid, uint64_t, wstatus, uint32_t, options, uint64_t, rusage)
{
	struct wait_result res = {0};
	long r;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	r = wait_common(pid, options | WEXITED, &res);
	if (r <= 0)
		return r;
	if (wstatus && copy_to_user(wstatus, &res.wstatus, sizeof(res.wstatus)))
		return -EFAULT;
	if (rusage && acct_rusage_to_user(&res.ru, rusage))
		return -EFAULT;
	return res.pid;
}

/* The part of siginfo_t waitid fills (Linux layout: signo, errno, code, pid, uid, status). */
struct waitid_info {
	int32_t signo, errno_, code, pad;
	int32_t pid, uid, status;
	int32_t rest[25];
};
_Static_assert(sizeof(struct waitid_info) == 128, "siginfo_t is 128 bytes");

/* waitid(idtype, id, siginfo_t *info, int options, struct rusage *ru) */
SYSCALL_DEFINE5(waitid, uint64_t, which, int, upid, uint64_t, infop, uint32_t, options, uint64_t,
		rusage)
{
	struct wait_result res = {0};
	struct waitid_info info = {0};
	int pid;
	long r;

	if (options & ~(WNOHANG | WSTOPPED | WEXITED | WCONTINUED | WNOWAIT | __WNOTHREAD |
			__WALL | __WCLONE))
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case P_ALL:
		pid = -1;
		break;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		pid = upid;
		break;
	case P_PGID:
		/* 0: the caller's own group (Linux 5.4 on). */
		if (upid < 0)
			return -EINVAL;
		pid = upid ? WAIT_PGID(upid) : 0;
		break;
	default:
		return -EINVAL;
	}
	r = wait_common(pid, options, &res);
	if (r < 0)
		return r;
	if (rusage && acct_rusage_to_user(&res.ru, rusage))
		return -EFAULT;
	if (r > 0) {
		int sig = res.wstatus & 0x7f;

		info.signo = SIGCHLD;
		info.pid = res.pid;
		if (res.continued) {
			info.code = CLD_CONTINUED;
			info.status = SIGCONT;
		} else if (res.stopped) {
			info.code = current && task_find(res.pid) && task_find(res.pid)->tracer
					    ? CLD_TRAPPED
					    : CLD_STOPPED;
			info.status = (res.wstatus >> 8) & 0xff;
		} else if (sig) {
			info.code = (res.wstatus & 0x80) ? CLD_DUMPED : CLD_KILLED;
			info.status = sig;
		} else {
			info.code = CLD_EXITED;
			info.status = (res.wstatus >> 8) & 0xff;
		}
	}
	/* WNOHANG with nothing to report: Linux zeroes si_pid and si_signo. */
	if (infop && copy_to_user(infop, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
