/*
 * Signal system calls, with Linux's argument checks and errors: actions,
 * masks, waiting for signals, the alternate stack, sending (kill, tkill,
 * tgkill) and rt_sigreturn.  The machinery is signal.c's.
 *
 * kill(0, sig) and kill(-pgid, sig) reach a process group (jobctl.c);
 * permission is Linux's (cred.h): EPERM across users unless privileged,
 * SIGCONT within a session always.
 */
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"

#define SIGSET_SIZE sizeof(uint64_t)

struct timespec_user {
	int64_t tv_sec, tv_nsec;
};

static bool sig_valid(int64_t sig)
{
	return sig >= 1 && sig <= NSIG;
}

SYSCALL(rt_sigaction)
{
	int sig = (int)a0;
	struct k_sigaction act, old, *ka;

	(void)a4, (void)a5;
	if (a3 != SIGSET_SIZE)
		return -EINVAL;
	if (a1 && copy_from_user(&act, a1, sizeof(act)))
		return -EFAULT;
	if (!sig_valid((int64_t)a0) || (a1 && (SIG_KERNEL_ONLY & SIGBIT(sig))))
		return -EINVAL;
	ka = &current->sighand->action[sig - 1];
	old = *ka;
	if (a1) {
		/* Unknown flags read back as 0, so programs can probe for support. */
		act.flags &= SA_UAPI_FLAGS;
		act.mask &= ~SIG_KERNEL_ONLY;
		*ka = act;
		signal_action_changed(current, sig);
	}
	/* Kernel-only bits (SA_IA32_ABI) read back as 0, as Linux's do_sigaction masks them. */
	old.flags &= SA_UAPI_FLAGS;
	if (a2 && copy_to_user(a2, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL(rt_sigprocmask)
{
	struct task *t = current;
	uint64_t set, old = t->sig.blocked;

	(void)a4, (void)a5;
	if (a3 != SIGSET_SIZE)
		return -EINVAL;
	if (a1) {
		if (copy_from_user(&set, a1, sizeof(set)))
			return -EFAULT;
		if (a0 == SIG_BLOCK)
			set |= old;
		else if (a0 == SIG_UNBLOCK)
			set = old & ~set;
		else if (a0 != SIG_SETMASK)
			return -EINVAL;
		/* A newly unblocked pending signal is delivered on this syscall's way out. */
		signal_set_blocked(t, set);
	}
	if (a2 && copy_to_user(a2, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL(rt_sigpending)
{
	struct task *t = current;
	uint64_t set = (t->sig.pending.set | t->sighand->shared.set) & t->sig.blocked;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a1 > SIGSET_SIZE)
		return -EINVAL;
	return copy_to_user(a0, &set, a1) ? -EFAULT : 0;
}

/* Sleeps until a signal is deliverable; the syscall then restarts unless a handler runs. */
static long wait_for_signal(struct task *t)
{
	while (!signal_pending(t))
		sched_block(&t->sig, 0, true);
	/* Delivery (signal.c) puts saved_blocked back: in the handler's frame, or at once. */
	t->sig.restore_blocked = true;
	t->work |= TASK_WORK_SIGPENDING;
	return -ERESTARTNOHAND;
}

SYSCALL(rt_sigsuspend)
{
	struct task *t = current;
	uint64_t mask;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a1 != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&mask, a0, sizeof(mask)))
		return -EFAULT;
	t->sig.saved_blocked = t->sig.blocked;
	signal_set_blocked(t, mask);
	return wait_for_signal(t);
}

SYSCALL(pause)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	current->sig.saved_blocked = current->sig.blocked;
	return wait_for_signal(current);
}

SYSCALL(rt_sigtimedwait)
{
	struct task *t = current;
	struct timespec_user ts;
	struct ksiginfo info;
	uint64_t these, deadline = 0, saved;
	bool timed = false;
	int sig, r = 0;

	(void)a4, (void)a5;
	if (a3 != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&these, a0, sizeof(these)))
		return -EFAULT;
	these &= ~SIG_KERNEL_ONLY;
	if (a2) {
		if (copy_from_user(&ts, a2, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (int64_t)NSEC_PER_SEC)
			return -EINVAL;
		timed = true;
		if (ts.tv_sec || ts.tv_nsec)
			deadline = time_monotonic_ns() + (uint64_t)ts.tv_sec * NSEC_PER_SEC +
				   (uint64_t)ts.tv_nsec;
	}
	sig = signal_dequeue(t, these, &info);
	if (!sig && !(timed && !deadline)) {
		/* While waiting, the awaited signals count as unblocked (Linux real_blocked). */
		saved = t->sig.blocked;
		t->sig.blocked &= ~these;
		while (!signal_pending(t) && r != -ETIMEDOUT)
			r = sched_block(&t->sig, deadline, true);
		t->sig.blocked = saved;
		sig = signal_dequeue(t, these, &info);
	}
	if (!sig)
		return timed && (!deadline || r == -ETIMEDOUT) ? -EAGAIN : -EINTR;
	if (a1) {
		struct el_siginfo si;

		signal_siginfo_user(&si, &info);
		if (copy_to_user(a1, &si, sizeof(si)))
			return -EFAULT;
	}
	return sig;
}

SYSCALL(sigaltstack)
{
	struct task *t = current;
	uint64_t sp = task_user_frame(t)->rsp;
	struct el_stack ss, old;
	int err;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && copy_from_user(&ss, a0, sizeof(ss)))
		return -EFAULT;
	sigframe_altstack_get(&t->sig.altstack, sp, &old);
	if (a0) {
		err = sigframe_altstack_set(&t->sig.altstack, sp, &ss, MINSIGSTKSZ);
		if (err)
			return err;
	}
	if (a1 && copy_to_user(a1, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL(rt_sigreturn)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return signal_sigreturn(task_user_frame(current));
}

/* No restart blocks are kept: a restarted sleep ends with EINTR (Linux's default). */
SYSCALL(restart_syscall)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return -EINTR;
}

static struct ksiginfo user_info(int sig, int code)
{
	return (struct ksiginfo){
		.signo = sig, .code = code, .pid = current->tgid, .uid = (int32_t)current->cred.uid};
}

/* Linux check_kill_permission: EPERM across users, but SIGCONT within a session. */
static bool may_kill(const struct task *p, int sig)
{
	return cred_may_signal(current, p) ||
	       (sig == SIGCONT && proc_job(p)->sid == proc_job(current)->sid);
}

/* kill(-1): every process but init and the caller; 0 even if none was permitted (Linux). */
static long kill_all(int sig)
{
	struct ksiginfo info = user_info(sig, SI_USER);
	bool found = false;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *p = &task_table[i];

		if (p->state == TASK_UNUSED || p->state == TASK_DEAD || p != p->group_leader)
			continue;
		if (p->tgid == INIT_PID || task_same_group(p, current))
			continue;
		found = true;
		if (sig && may_kill(p, sig))
			signal_send(p, sig, &info, true);
	}
	return found ? 0 : -ESRCH;
}

SYSCALL(kill)
{
	int64_t pid = (int64_t)(int32_t)a0, sig = (int64_t)(int32_t)a1;
	struct ksiginfo info;
	struct task *p;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	info = user_info((int)sig, SI_USER);
	if (pid == -1)
		return kill_all((int)sig);
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid <= 0)
		return jobctl_kill_pgrp(pid ? (int)-pid : proc_job(current)->pgid, (int)sig, &info,
					true);
	p = task_find((int)pid);
	if (!p)
		return -ESRCH;
	if (!may_kill(p, (int)sig))
		return -EPERM;
	if (!sig)
		return 0;
	return signal_send(p, (int)sig, &info, true);
}

/* tkill and tgkill (Linux do_send_specific): tgid 0 means any process. */
static long send_specific(int64_t tgid, int64_t tid, int64_t sig)
{
	struct task *t = task_find((int)tid);
	struct ksiginfo info;

	if (!t || (tgid > 0 && t->tgid != tgid))
		return -ESRCH;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!may_kill(t, (int)sig))
		return -EPERM;
	if (!sig)
		return 0;
	info = user_info((int)sig, SI_TKILL);
	return signal_send(t, (int)sig, &info, false);
}

/* The siginfo a process queues itself (rt_sigqueueinfo): Linux's layout, the kill part. */
static long queued_info(int sig, uint64_t uinfo, bool self, struct ksiginfo *k)
{
	struct el_siginfo si;

	if (copy_from_user(&si, uinfo, sizeof(si)))
		return -EFAULT;
	/* Only the kernel sends SI_USER/SI_KERNEL codes, and SI_TKILL, to others (Linux). */
	if ((si.si_code >= 0 || si.si_code == SI_TKILL) && !self)
		return -EPERM;
	*k = (struct ksiginfo){.signo = sig, .errno_ = si.si_errno, .code = si.si_code,
			       .pid = si.u.kill.pid, .uid = (int32_t)si.u.kill.uid,
			       .addr = si.u.kill.value};
	return 0;
}

/* rt_sigqueueinfo(tgid, sig, siginfo_t *) */
SYSCALL(rt_sigqueueinfo)
{
	int64_t tgid = (int64_t)(int32_t)a0, sig = (int64_t)(int32_t)a1;
	struct task *p = task_find((int)tgid);
	struct ksiginfo info;
	long err;

	(void)a3, (void)a4, (void)a5;
	if (!p || p->tgid != tgid)
		return -ESRCH;
	err = queued_info((int)sig, a2, task_same_group(p, current), &info);
	if (err)
		return err;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!may_kill(p, (int)sig))
		return -EPERM;
	return sig ? signal_send(p, (int)sig, &info, true) : 0;
}

/* rt_tgsigqueueinfo(tgid, tid, sig, siginfo_t *) */
SYSCALL(rt_tgsigqueueinfo)
{
	int64_t tgid = (int64_t)(int32_t)a0, tid = (int64_t)(int32_t)a1;
	int64_t sig = (int64_t)(int32_t)a2;
	struct task *t = task_find((int)tid);
	struct ksiginfo info;
	long err;

	(void)a4, (void)a5;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	if (!t || t->tgid != tgid)
		return -ESRCH;
	err = queued_info((int)sig, a3, task_same_group(t, current), &info);
	if (err)
		return err;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!may_kill(t, (int)sig))
		return -EPERM;
	return sig ? signal_send(t, (int)sig, &info, false) : 0;
}

SYSCALL(tkill)
{
	int64_t tid = (int64_t)(int32_t)a0;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (tid <= 0)
		return -EINVAL;
	return send_specific(0, tid, (int64_t)(int32_t)a1);
}

SYSCALL(tgkill)
{
	int64_t tgid = (int64_t)(int32_t)a0, tid = (int64_t)(int32_t)a1;

	(void)a3, (void)a4, (void)a5;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	return send_specific(tgid, tid, (int64_t)(int32_t)a2);
}
