/*
 * Job control (jobctl.h): process groups, sessions, group stop and
 * continue, and the syscalls setpgid, getpgid, getpgrp, setsid, getsid
 * with Linux's rules (kernel/sys.c).
 */
#include "fs/tty.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/wait_flags.h"
#include "sys/errno.h"
#include "sys/syscalls.h"

#define W_CONTINUED 0xffff

static bool live(const struct task *t)
{
	return t->state != TASK_UNUSED && t->state != TASK_DEAD && t->state != TASK_ZOMBIE;
}

/* A live process (group leader) at slot i, else NULL. */
static struct task *proc_at(unsigned i)
{
	struct task *p = &task_table[i];

	return live(p) && p->group_leader == p ? p : 0;
}

void jobctl_init(struct task *init)
{
	init->job.pgid = init->job.sid = init->pid;
	tty_console_set_session(init->pid, init->pid);
}

void jobctl_fork(struct task *child, const struct task *parent)
{
	const struct task_job *pj = &parent->group_leader->job;

	child->job = (struct task_job){.pgid = pj->pgid, .sid = pj->sid, .no_ctty = pj->no_ctty};
}

bool jobctl_pgrp_exists(int pgid, int sid)
{
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *p = proc_at(i);

		if (p && p->job.pgid == pgid && (!sid || p->job.sid == sid))
			return true;
	}
	return false;
}

/* Orphaned (POSIX): no member's parent is in another group of the same session; `except` left out. */
static bool orphaned_except(int pgid, const struct task *except)
{
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *p = proc_at(i), *pp;

		if (!p || p == except || p->job.pgid != pgid)
			continue;
		pp = p->parent;
		/* A parent that is init does not tie a group to its session (Linux). */
		if (pp && pp != except && live(pp) && pp->tgid != INIT_PID &&
		    pp->group_leader->job.pgid != pgid &&
		    pp->group_leader->job.sid == p->job.sid)
			return false;
	}
	return true;
}

bool jobctl_pgrp_orphaned(int pgid)
{
	return orphaned_except(pgid, 0);
}

bool jobctl_has_ctty(const struct task *t)
{
	const struct task_job *j = proc_job(t);

	return !j->no_ctty && j->sid == tty_console_session();
}

static void notify_parent(struct task *leader, int code, int status)
{
	struct task *parent = leader->parent;
	struct ksiginfo info = {.signo = SIGCHLD, .code = code, .pid = leader->tgid,
				.uid = (int32_t)leader->cred.uid, .status = status};

	if (!parent || !parent->sighand)
		return;
	if (!(parent->sighand->action[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		signal_send(parent, SIGCHLD, &info, true);
	wake_up(parent->group_leader);
}

/* Every live thread of t's process is stopped. */
static bool all_stopped(const struct task *t)
{
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		const struct task *o = &task_table[i];

		if (o->tgid == t->tgid && live(o) && o->state != TASK_STOPPED)
			return false;
	}
	return true;
}

void jobctl_stop(struct task *t, int sig)
{
	struct task_job *pj = proc_job(t);
	unsigned i;

	/* POSIX: the terminal stops do not stop an orphaned group (nobody would continue it). */
	if (sig && sig != SIGSTOP && jobctl_pgrp_orphaned(pj->pgid))
		return;
	if (sig) {
		pj->stop_sig = sig;
		for (i = 0; i < task_slots; i++) {
			struct task *o = &task_table[i];

			if (o == t || o->tgid != t->tgid || !live(o) || o->state == TASK_STOPPED)
				continue;
			o->job.stop_pending = true;
			o->work |= TASK_WORK_SIGPENDING;
			wake_signal(o);
		}
	}
	t->job.stop_pending = false;
	t->state = TASK_STOPPED;
	if (all_stopped(t) && !pj->stopped) {
		pj->stopped = true;
		pj->report_stop = true;
		pj->report_cont = false;
		notify_parent(t->group_leader, CLD_STOPPED, pj->stop_sig);
	}
	schedule();
}

void jobctl_continue(struct task *t)
{
	struct task_job *pj = proc_job(t);
	bool was_stopped = pj->stopped;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *o = &task_table[i];

		if (o->tgid != t->tgid || !live(o))
			continue;
		o->job.stop_pending = false;
		/* A ptrace stop is the tracer's to end. */
		if (o->state == TASK_STOPPED && !o->tracer)
			wake_task(o);
	}
	pj->stopped = false;
	if (was_stopped) {
		pj->report_stop = false;
		pj->report_cont = true;
		notify_parent(t->group_leader, CLD_CONTINUED, SIGCONT);
	}
}

/* SIGHUP then SIGCONT to every process of pgid (Linux kill_orphaned_pgrp), if one is stopped. */
static void hup_orphaned(int pgid, const struct task *dying)
{
	struct ksiginfo info = {.code = SI_KERNEL};
	bool stopped = false;
	unsigned i;

	if (!orphaned_except(pgid, dying))
		return;
	for (i = 0; i < task_slots; i++) {
		struct task *p = proc_at(i);

		stopped |= p && p != dying && p->job.pgid == pgid && p->job.stopped;
	}
	if (!stopped)
		return;
	for (i = 0; i < task_slots; i++) {
		struct task *p = proc_at(i);

		if (!p || p == dying || p->job.pgid != pgid)
			continue;
		info.signo = SIGHUP;
		signal_send(p, SIGHUP, &info, true);
		info.signo = SIGCONT;
		signal_send(p, SIGCONT, &info, true);
	}
}

void jobctl_exit(struct task *leader)
{
	struct task *parent = leader->parent;
	const struct task_job *j = &leader->job;
	unsigned i;

	/* Its own group, if the parent tied it to the session and it was the last such tie. */
	if (parent && parent->group_leader->job.pgid != j->pgid &&
	    parent->group_leader->job.sid == j->sid)
		hup_orphaned(j->pgid, leader);
	/* Its children's groups, likewise. */
	for (i = 0; i < task_slots; i++) {
		struct task *c = proc_at(i);

		if (c && c->parent == leader && c->job.pgid != j->pgid && c->job.sid == j->sid)
			hup_orphaned(c->job.pgid, leader);
	}
}

int jobctl_wait_report(struct task *c, uint32_t options, bool peek, int *wstatus)
{
	struct task_job *j = &c->job;

	if (c->group_leader != c || !live(c))
		return 0;
	if ((options & WUNTRACED) && j->report_stop && j->stopped) {
		*wstatus = W_STOPCODE(j->stop_sig);
		if (!peek && !(options & WNOWAIT))
			j->report_stop = false;
		return 1;
	}
	if ((options & WCONTINUED) && j->report_cont) {
		*wstatus = W_CONTINUED;
		if (!peek && !(options & WNOWAIT))
			j->report_cont = false;
		return 2;
	}
	return 0;
}

int jobctl_kill_pgrp(int pgid, int sig, const struct ksiginfo *info, bool check)
{
	bool found = false, sent = false;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *p = proc_at(i);

		if (!p || p->job.pgid != pgid)
			continue;
		found = true;
		/* SIGCONT within one session is always allowed (Linux check_kill_permission). */
		if (check && !cred_may_signal(current, p) &&
		    !(sig == SIGCONT && p->job.sid == proc_job(current)->sid))
			continue;
		sent = true;
		if (sig)
			signal_send(p, sig, info, true);
	}
	return sent ? 0 : found ? -EPERM : -ESRCH;
}

/* --- the syscalls --- */

/* The process pid (0: the caller's); NULL if none. */
static struct task *proc_of(int pid)
{
	struct task *t = pid ? task_find(pid) : current;

	return t && live(t->group_leader) ? t->group_leader : 0;
}

/* setpgid(pid, pgid) */
SYSCALL_DEFINE2(setpgid, int, pid, int, pgid)
{
	struct task *me = current->group_leader, *p;

	if (pgid < 0)
		return -EINVAL;
	p = proc_of(pid);
	if (!p)
		return -ESRCH;
	if (pid && p->tgid != pid)
		return -EINVAL; /* a thread that does not lead its group */
	if (!pgid)
		pgid = p->tgid;
	if (p != me) {
		if (p->parent != me)
			return -ESRCH;
		if (p->job.sid != me->job.sid)
			return -EPERM;
		if (p->job.did_exec)
			return -EACCES;
	}
	if (p->job.sid == p->tgid) /* a session leader stays where it is */
		return -EPERM;
	if (pgid != p->tgid && !jobctl_pgrp_exists(pgid, me->job.sid))
		return -EPERM;
	p->job.pgid = pgid;
	return 0;
}

SYSCALL_DEFINE1(getpgid, int, pid)
{
	struct task *p = proc_of(pid);

	return p ? p->job.pgid : -ESRCH;
}

SYSCALL_DEFINE0(getpgrp)
{
	return proc_job(current)->pgid;
}

SYSCALL_DEFINE1(getsid, int, pid)
{
	struct task *p = proc_of(pid);

	return p ? p->job.sid : -ESRCH;
}

/* A process group leader (any group with its pid) may not start a session. */
SYSCALL_DEFINE0(setsid)
{
	struct task *me = current->group_leader;

	if (jobctl_pgrp_exists(me->tgid, 0))
		return -EPERM;
	me->job.sid = me->job.pgid = me->tgid;
	me->job.no_ctty = true;
	return me->tgid;
}
