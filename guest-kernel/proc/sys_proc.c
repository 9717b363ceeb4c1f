/*
 * Process syscalls: ids, exit, uname, limits, affinity (arch_prctl:
 * arch/x86_64/sys_arch.c).
 * getpid is the thread group's id, gettid the thread's; everything runs as
 * root; one CPU.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "lib/string.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"

#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0ull)

#define UTS_LEN 65

struct utsname {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN];
	char version[UTS_LEN], machine[UTS_LEN], domainname[UTS_LEN];
};

struct rlimit64 {
	uint64_t cur, max;
};

uint32_t file_mode_mask = 022;

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

SYSCALL(getuid)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return 0;
}

SYSCALL(set_tid_address)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	current->clear_child_tid = a0;
	return current->pid;
}

SYSCALL(set_robust_list)
{
	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5;
	return a1 == 24 ? 0 : -EINVAL; /* sizeof(struct robust_list_head) */
}

SYSCALL(uname)
{
	static const struct utsname u = {
		.sysname = "Linux",
		.nodename = "entrylab",
		.release = "6.1.0-entrylab",
		.version = "#1 SMP entrylab",
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

static struct rlimit64 rlimit_of(unsigned res)
{
	if (res == RLIMIT_STACK)
		return (struct rlimit64){STACK_LIMIT, RLIM_INFINITY};
	if (res == RLIMIT_NOFILE)
		return (struct rlimit64){FD_MAX, FD_MAX};
	return (struct rlimit64){RLIM_INFINITY, RLIM_INFINITY};
}

/* New limits are accepted and ignored: nothing here enforces them. */
SYSCALL(prlimit64)
{
	struct rlimit64 old;

	(void)a2, (void)a4, (void)a5;
	if (a0 && a0 != (uint64_t)current->pid)
		return -ESRCH;
	if (a1 >= RLIM_NLIMITS)
		return -EINVAL;
	old = rlimit_of((unsigned)a1);
	return a3 ? copy_to_user(a3, &old, sizeof(old)) : 0;
}

SYSCALL(getrlimit)
{
	struct rlimit64 old;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 >= RLIM_NLIMITS)
		return -EINVAL;
	old = rlimit_of((unsigned)a0);
	return copy_to_user(a1, &old, sizeof(old));
}

SYSCALL(umask)
{
	uint32_t old = file_mode_mask;

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	file_mode_mask = a0 & 0777;
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
