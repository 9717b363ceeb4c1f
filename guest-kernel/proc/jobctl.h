/*
 * Job control (jobctl.c): process groups and sessions, group stop and
 * continue, the orphaned-group rule, and what wait reports of them.
 *
 * A process's group, session and stop state are kept in its group
 * leader's struct task_job (proc_job()); each thread has only its own
 * stop_pending.  Init starts session 1 and group 1 and the console is its
 * controlling terminal (fs/tty.c).  A process has a controlling terminal
 * when it did not give it up (setsid, TIOCNOTTY) and its session is the
 * console's.
 *
 * Group stop, as Linux's do_signal_stop on one CPU: a stop signal whose
 * action is the default marks every thread of the process; each stops on
 * its way back to user mode (TASK_STOPPED); the last one to stop makes the
 * process stopped, the parent gets SIGCHLD (CLD_STOPPED unless its
 * SIGCHLD action has SA_NOCLDSTOP) and wait(WUNTRACED) reports it once.
 * SIGCONT sent to a stopped process wakes every thread, the parent gets
 * CLD_CONTINUED and wait(WCONTINUED) reports it once.  A traced task does
 * not group-stop (its tracer sees the signal; ptrace.c).
 */
#ifndef EL_PROC_JOBCTL_H
#define EL_PROC_JOBCTL_H

#include "kernel.h"

struct task;

struct task_job {
	int pgid, sid;       /* leader: process group and session */
	bool did_exec;       /* leader: execve'd since fork (setpgid by the parent: EACCES) */
	bool no_ctty;        /* leader: gave up the controlling terminal (setsid, TIOCNOTTY) */
	bool stop_pending;   /* this thread stops on its way to user mode (group stop) */
	bool stopped;        /* leader: every thread stopped (group stop complete) */
	int stop_sig;        /* leader: the signal of the last group stop */
	bool report_stop;    /* leader: wait(WUNTRACED) has a stop to report */
	bool report_cont;    /* leader: wait(WCONTINUED) has a continue to report */
};

/* The process-wide job state of t (its group leader's). */
#define proc_job(t) (&(t)->group_leader->job)

/* fork: the child's group and session are the parent's; its stop state is clear. */
void jobctl_fork(struct task *child, const struct task *parent);
/* Init: session 1, group 1. */
void jobctl_init(struct task *init);

/* A live process is in group pgid (optionally only in session sid, 0: any). */
bool jobctl_pgrp_exists(int pgid, int sid);
/* No member of pgid has a parent in another group of the same session (Linux). */
bool jobctl_pgrp_orphaned(int pgid);
/* t has the console as its controlling terminal. */
bool jobctl_has_ctty(const struct task *t);

/*
 * signal_deliver: the current thread stops for a group stop (sig: the stop
 * signal being acted on, 0: another thread's stop) and returns once
 * continued or killed.  Stop signals for an orphaned group other than
 * SIGSTOP are discarded instead (returns at once).
 */
void jobctl_stop(struct task *t, int sig);
/* SIGCONT sent to t's process (ignored or not): a stopped or stopping process continues. */
void jobctl_continue(struct task *t);
/* A process exits: groups it leaves orphaned with stopped members get SIGHUP and SIGCONT. */
void jobctl_exit(struct task *leader);

/*
 * Sends sig to every process of group pgid (kill(0), kill(-pgid), the
 * terminal's signals).  check: kill(2)'s permission rule per process.
 * 0 if one took it, else -ESRCH (no such group) or -EPERM (none allowed).
 */
struct ksiginfo;
int jobctl_kill_pgrp(int pgid, int sig, const struct ksiginfo *info, bool check);

/* What wait may report of child c with options: 1 stop, 2 continue, 0 none; consumed unless peek. */
int jobctl_wait_report(struct task *c, uint32_t options, bool peek, int *wstatus);

#endif
