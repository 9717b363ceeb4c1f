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

SYSCALL_DEFINE1(exit, int, error_code)
{
	task_exit(W_EXITCODE(error_code, 0));
}

SYSCALL_DEFINE1(exit_group, int, error_code)
{
	task_exit_group(W_EXITCODE(error_code, 0));
}

SYSCALL_DEFINE0(getpid)
{
	return current->tgid;
}

SYSCALL_DEFINE0(gettid)
{
	return current->pid;
}

SYSCALL_DEFINE0(getppid)
{
	return current->group_leader->parent ? current->group_leader->parent->tgid : 0;
}

SYSCALL_DEFINE1(set_tid_address, uint64_t, tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}

SYSCALL_DEFINE1(uname, uint64_t, name)
{
	static const struct utsname u = {
		.sysname = UTS_SYSNAME,
		.nodename = UTS_NODENAME,
		.release = UTS_RELEASE,
		.version = UTS_VERSION,
		.machine = "x86_64",
		.domainname = "(none)",
	};

	return copy_to_user(name, &u, sizeof(u));
}

SYSCALL_DEFINE0(sched_yield)
{
	schedule();
	return 0;
}

SYSCALL_DEFINE3(sched_getaffinity, uint64_t, pid, uint64_t, len, uint64_t, user_mask_ptr)
{
	uint64_t mask = 1; /* CPU 0 */

	if (pid && !task_find((int)pid))
		return -ESRCH;
	if (len < sizeof(mask) || (len & (sizeof(mask) - 1)))
		return -EINVAL;
	return copy_to_user(user_mask_ptr, &mask, sizeof(mask)) ?: (long)sizeof(mask);
}

SYSCALL_DEFINE1(umask, uint64_t, mask)
{
	uint32_t old = current->umask;

	current->umask = mask & 0777;
	return old;
}

SYSCALL_DEFINE0(enosys)
{
	return -ENOSYS;
}

/* One CPU: a mask must include CPU 0 (Linux: EINVAL when no allowed CPU is online). */
SYSCALL_DEFINE3(sched_setaffinity, uint64_t, pid, uint64_t, len, uint64_t, user_mask_ptr)
{
	uint64_t mask = 0;

	if (pid && !task_find((int)pid))
		return -ESRCH;
	if (copy_from_user(&mask, user_mask_ptr, len < sizeof(mask) ? len : sizeof(mask)))
		return -EFAULT;
	return (mask & 1) ? 0 : -EINVAL;
}
