/*
 * ptrace (ptrace.h).  Not implemented yet beyond the hooks the rest of the
 * kernel calls: nothing is ever traced, so every hook is the untraced case.
 */
#include "proc/process.h"
#include "proc/ptrace.h"

int ptrace_signal_stop(int sig, struct ksiginfo *info, struct trap_frame *tf)
{
	(void)info, (void)tf;
	return sig;
}

void ptrace_task_exit(struct task *t)
{
	(void)t;
}

void ptrace_clone_inherit(struct task *child, const struct task *parent, uint64_t clone_flags)
{
	(void)child, (void)parent, (void)clone_flags;
}

bool ptrace_syscall_entry(struct trap_frame *tf)
{
	(void)tf;
	return true;
}

void ptrace_syscall_exit(struct trap_frame *tf)
{
	(void)tf;
}
