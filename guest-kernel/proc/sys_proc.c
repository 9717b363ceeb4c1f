/*
 * Process syscalls: ids, exit, uname, affinity (limits: sys_rlimit.c; arch_prctl:
 * arch/x86_64/sys_arch.c).
 * getpid is the thread group's id, gettid the thread's (the ids: sys_cred.c);
 * one CPU.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "lib/string.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/uts.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"

#define UTS_LEN 65

struct utsname {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN];
	char version[UTS_LEN], machine[UTS_LEN], domainname[UTS_LEN];
};

SYSCALL(exit)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	task_exit(W_EXITCODE((int)a0, 0));
}

SYSCALL(exit_group)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	task_exit_group(W_EXITCODE((int)a0, 0));
}

SYSCALL(getpid)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return current->tgid;
}

SYSCALL(gettid)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return current->pid;
}

SYSCALL(getppid)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return current->group_leader->parent ? current->group_leader->parent->tgid : 0;
}

SYSCALL(set_tid_address)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	current->clear_child_tid = a0;
	return current->pid;
}

SYSCALL(uname)
{
	static const struct utsname u = {
		.sysname = UTS_SYSNAME,
		.nodename = UTS_NODENAME,
		.release = UTS_RELEASE,
		.version = UTS_VERSION,
		.machine = "x86_64",
		.domainname = "(none)",
	};

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return copy_to_user(a0, &u, sizeof(u));
}

SYSCALL(sched_yield)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	schedule();
	return 0;
}

SYSCALL(sched_getaffinity)
{
	uint64_t mask = 1; /* CPU 0 */

	(void)a3, (void)a4, (void)a5;
	if (a0 && !task_find((int)a0))
		return -ESRCH;
	if (a1 < sizeof(mask) || (a1 & (sizeof(mask) - 1)))
		return -EINVAL;
	return copy_to_user(a2, &mask, sizeof(mask)) ?: (long)sizeof(mask);
}

SYSCALL(umask)
{
	uint32_t old = current->umask;

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	current->umask = a0 & 0777;
	return old;
}

SYSCALL(enosys)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return -ENOSYS;
}

/* One CPU: a mask must include CPU 0 (Linux: EINVAL when no allowed CPU is online). */
SYSCALL(sched_setaffinity)
{
	uint64_t mask = 0;

	(void)a3, (void)a4, (void)a5;
	if (a0 && !task_find((int)a0))
		return -ESRCH;
	if (copy_from_user(&mask, a2, a1 < sizeof(mask) ? a1 : sizeof(mask)))
		return -EFAULT;
	return (mask & 1) ? 0 : -EINVAL;
}
