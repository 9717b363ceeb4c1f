/*
 * Signal syscalls.  Actions and the mask are recorded but no handler ever
 * runs (delivery comes later).  A signal the process sends itself takes its
 * default action when that ends the process (abort() -> status 134), at
 * once or, if blocked, when unblocked; otherwise it is ignored.
 */
#include "lib/kprintf.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define SIGKILL 9
#define SIGSTOP 19
#define SIG_DFL 0
#define SIG_IGN 1
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SS_DISABLE 2

/* Default action "ignore" or "stop": CHLD CONT STOP TSTP TTIN TTOU URG WINCH. */
#define SIG_DEFAULT_HARMLESS (BIT(17 - 1) | BIT(18 - 1) | BIT(19 - 1) | BIT(20 - 1) | \
			      BIT(21 - 1) | BIT(22 - 1) | BIT(23 - 1) | BIT(28 - 1))
#define SIG_UNBLOCKABLE (BIT(SIGKILL - 1) | BIT(SIGSTOP - 1))

struct stack_t_user {
	uint64_t sp;
	int32_t flags;
	int32_t pad;
	uint64_t size;
};

/* The process sends itself signo. */
static long signal_self(uint64_t signo)
{
	const struct k_sigaction *ka;
	static bool warned;

	if (signo > NSIG)
		return -EINVAL;
	if (!signo)
		return 0;
	ka = &current->sighand->action[signo - 1];
	if (ka->handler == SIG_IGN)
		return 0;
	if (current->sig.blocked & BIT(signo - 1)) {
		current->sig.pending.set |= BIT(signo - 1);
		return 0;
	}
	if (ka->handler == SIG_DFL) {
		if (SIG_DEFAULT_HARMLESS & BIT(signo - 1))
			return 0;
		process_kill((int)signo);
	}
	if (!warned) {
		warned = true;
		kprintf("%s[%d]: signal %lu has a handler; this kernel does not run handlers\n",
			current->comm, current->pid, signo);
	}
	return 0;
}

/* After the mask changed: what was pending and is now unblocked takes effect. */
static void signals_unblocked(void)
{
	uint64_t ready = current->sig.pending.set & ~current->sig.blocked;

	while (ready) {
		unsigned signo = (unsigned)__builtin_ctzll(ready) + 1;

		ready &= ready - 1;
		current->sig.pending.set &= ~BIT(signo - 1);
		signal_self(signo);
	}
}

SYSCALL(rt_sigaction)
{
	struct k_sigaction *ka;
	struct k_sigaction act;

	(void)a4, (void)a5;
	if (a3 != sizeof(uint64_t) || a0 < 1 || a0 > NSIG)
		return -EINVAL;
	ka = &current->sighand->action[a0 - 1];
	if (a1 && (a0 == SIGKILL || a0 == SIGSTOP))
		return -EINVAL;
	if (a1 && copy_from_user(&act, a1, sizeof(act)))
		return -EFAULT;
	if (a2 && copy_to_user(a2, ka, sizeof(*ka)))
		return -EFAULT;
	if (a1)
		*ka = act;
	return 0;
}

SYSCALL(rt_sigprocmask)
{
	uint64_t set, old = current->sig.blocked;

	(void)a4, (void)a5;
	if (a3 != sizeof(uint64_t))
		return -EINVAL;
	if (a1) {
		if (a0 > SIG_SETMASK)
			return -EINVAL;
		if (copy_from_user(&set, a1, sizeof(set)))
			return -EFAULT;
		if (a0 == SIG_BLOCK)
			current->sig.blocked |= set;
		else if (a0 == SIG_UNBLOCK)
			current->sig.blocked &= ~set;
		else
			current->sig.blocked = set;
		current->sig.blocked &= ~SIG_UNBLOCKABLE;
	}
	if (a2 && copy_to_user(a2, &old, sizeof(old)))
		return -EFAULT;
	signals_unblocked();
	return 0;
}

SYSCALL(sigaltstack)
{
	struct stack_t_user none = {0, SS_DISABLE, 0, 0};

	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5;
	return a1 ? copy_to_user(a1, &none, sizeof(none)) : 0;
}

SYSCALL(kill)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if ((int64_t)a0 != current->pid && a0 != 0 && (int64_t)a0 != -1)
		return -ESRCH;
	return signal_self(a1);
}

SYSCALL(tkill)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if ((int64_t)a0 != current->pid)
		return (int64_t)a0 <= 0 ? -EINVAL : -ESRCH;
	return signal_self(a1);
}

SYSCALL(tgkill)
{
	(void)a3, (void)a4, (void)a5;
	if ((int64_t)a0 <= 0 || (int64_t)a1 <= 0)
		return -EINVAL;
	if ((int64_t)a0 != current->pid || (int64_t)a1 != current->pid)
		return -ESRCH;
	return signal_self(a2);
}
