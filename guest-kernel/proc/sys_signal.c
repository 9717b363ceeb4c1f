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

SYSCALL_DEFINE4(rt_sigaction, int64_t, signum, uint64_t, uact, uint64_t, oact, uint64_t, sigsetsize)
{
	int sig = (int)signum;
	struct k_sigaction act, old, *ka;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	if (!sig_valid(signum) || (uact && (SIG_KERNEL_ONLY & SIGBIT(sig))))
		return -EINVAL;
	ka = &current->sighand->action[sig - 1];
	old = *ka;
	if (uact) {
		/* Unknown flags read back as 0, so programs can probe for support. */
		act.flags &= SA_UAPI_FLAGS;
		act.mask &= ~SIG_KERNEL_ONLY;
		*ka = act;
		signal_action_changed(current, sig);
	}
	/* Kernel-only bits (SA_IA32_ABI) read back as 0, as Linux's do_sigaction masks them. */
	old.flags &= SA_UAPI_FLAGS;
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, uint64_t, how, uint64_t, nset, uint64_t, oset, uint64_t, sigsetsize)
{
	struct task *t = current;
	uint64_t set, old = t->sig.blocked;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&set, nset, sizeof(set)))
			return -EFAULT;
		if (how == SIG_BLOCK)
			set |= old;
		else if (how == SIG_UNBLOCK)
			set = old & ~set;
		else if (how != SIG_SETMASK)
			return -EINVAL;
		/* A newly unblocked pending signal is delivered on this syscall's way out. */
		signal_set_blocked(t, set);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(rt_sigpending, uint64_t, uset, uint64_t, sigsetsize)
{
	struct task *t = current;
	uint64_t set = (t->sig.pending.set | t->sighand->shared.set) & t->sig.blocked;

	if (sigsetsize > SIGSET_SIZE)
		return -EINVAL;
	return copy_to_user(uset, &set, sigsetsize) ? -EFAULT : 0;
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

SYSCALL_DEFINE2(rt_sigsuspend, uint64_t, unewset, uint64_t, sigsetsize)
{
	struct task *t = current;
	uint64_t mask;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&mask, unewset, sizeof(mask)))
		return -EFAULT;
	t->sig.saved_blocked = t->sig.blocked;
	signal_set_blocked(t, mask);
	return wait_for_signal(t);
}

SYSCALL_DEFINE0(pause)
{
	current->sig.saved_blocked = current->sig.blocked;
	return wait_for_signal(current);
}

SYSCALL_DEFINE4(rt_sigtimedwait, uint64_t, uthese, uint64_t, uinfo, uint64_t, uts, uint64_t,
		sigsetsize)
{
	struct task *t = current;
	struct timespec_user ts;
	struct ksiginfo info;
	uint64_t these, deadline = 0, saved;
	bool timed = false;
	int sig, r = 0;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	these &= ~SIG_KERNEL_ONLY;
	if (uts) {
		if (copy_from_user(&ts, uts, sizeof(ts)))
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
	if (uinfo) {
		struct el_siginfo si;

		signal_siginfo_user(&si, &info);
		if (copy_to_user(uinfo, &si, sizeof(si)))
			return -EFAULT;
	}
	return sig;
}

SYSCALL_DEFINE2(sigaltstack, uint64_t, uss, uint64_t, uoss)
{
	struct task *t = current;
	uint64_t sp = task_user_frame(t)->rsp;
	struct el_stack ss, old;
	int err;

	if (uss && copy_from_user(&ss, uss, sizeof(ss)))
		return -EFAULT;
	sigframe_altstack_get(&t->sig.altstack, sp, &old);
	if (uss) {
		err = sigframe_altstack_set(&t->sig.altstack, sp, &ss, MINSIGSTKSZ);
		if (err)
			return err;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE0(rt_sigreturn)
{
	return signal_sigreturn(task_user_frame(current));
}

/* No restart blocks are kept: a restarted sleep ends with EINTR (Linux's default). */
SYSCALL_DEFINE0(restart_syscall)
{
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

SYSCALL_DEFINE2(kill, int32_t, pid, int32_t, sig)
{
	struct ksiginfo info;
	struct task *p;

	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	info = user_info(sig, SI_USER);
	if (pid == -1)
		return kill_all(sig);
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid <= 0)
		return jobctl_kill_pgrp(pid ? -pid : proc_job(current)->pgid, sig, &info,
					true);
	p = task_find(pid);
	if (!p)
		return -ESRCH;
	if (!may_kill(p, sig))
		return -EPERM;
	if (!sig)
		return 0;
	return signal_send(p, sig, &info, true);
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
SYSCALL_DEFINE3(rt_sigqueueinfo, int32_t, tgid, int32_t, sig, uint64_t, uinfo)
{
	struct task *p = task_find(tgid);
	struct ksiginfo info;
	long err;

	if (!p || p->tgid != tgid)
		return -ESRCH;
	err = queued_info(sig, uinfo, task_same_group(p, current), &info);
	if (err)
		return err;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!may_kill(p, sig))
		return -EPERM;
	return sig ? signal_send(p, sig, &info, true) : 0;
}

/* rt_tgsigqueueinfo(tgid, tid, sig, siginfo_t *) */
SYSCALL_DEFINE4(rt_tgsigqueueinfo, int32_t, tgid, int32_t, tid, int32_t, sig, uint64_t, uinfo)
{
	struct task *t = task_find(tid);
	struct ksiginfo info;
	long err;

	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	if (!t || t->tgid != tgid)
		return -ESRCH;
	err = queued_info(sig, uinfo, task_same_group(t, current), &info);
	if (err)
		return err;
	if (sig < 0 || sig > NSIG)
		return -EINVAL;
	if (!may_kill(t, sig))
		return -EPERM;
	return sig ? signal_send(t, sig, &info, false) : 0;
}

SYSCALL_DEFINE2(tkill, int32_t, tid, int32_t, sig)
{
	if (tid <= 0)
		return -EINVAL;
	return send_specific(0, tid, sig);
}

SYSCALL_DEFINE3(tgkill, int32_t, tgid, int32_t, tid, int32_t, sig)
{
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	return send_specific(tgid, tid, sig);
}
