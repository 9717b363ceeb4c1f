/*
 * ptrace (ptrace.c): a tracer and its tracees, the stops and their reports.
 */
#ifndef EL_PROC_PTRACE_H
#define EL_PROC_PTRACE_H

#include "arch/x86_64/entry/trapframe.h"
#include "proc/signal_types.h"

struct task;

/*
 * A traced task is about to act on signal sig: it stops, the tracer sees it
 * in wait, and the signal the tracer resumes it with is returned (0: none).
 */
int ptrace_signal_stop(int sig, struct ksiginfo *info, struct trap_frame *tf);
/* The task exits: its tracees are detached, its tracer is told. */
void ptrace_task_exit(struct task *t);
/* clone: CLONE_PTRACE (or the tracer's options) make the child traced too. */
void ptrace_clone_inherit(struct task *child, const struct task *parent, uint64_t clone_flags);
/* Syscall-entry and -exit stops (PTRACE_SYSCALL); entry returns false to skip the call. */
bool ptrace_syscall_entry(struct trap_frame *tf);
void ptrace_syscall_exit(struct trap_frame *tf);

#endif
