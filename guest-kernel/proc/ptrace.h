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
/* clone: CLONE_PTRACE or the tracer's TRACEFORK/VFORK/CLONE make the child traced too. */
void ptrace_clone_inherit(struct task *child, const struct task *parent, uint64_t clone_flags);
/* clone, once the child can run: the parent's PTRACE_EVENT_FORK/VFORK/CLONE stop. */
void ptrace_clone_event(const struct task *child, uint64_t clone_flags);
/* vfork, once the child released the parent: PTRACE_EVENT_VFORK_DONE. */
void ptrace_vfork_done(int child_pid);
/* execve succeeded: PTRACE_EVENT_EXEC or the SIGTRAP of an ATTACHed tracee. */
void ptrace_exec(int old_tid);
/* The top of task_exit: PTRACE_EVENT_EXIT. */
void ptrace_exit_event(int wstatus);
/* TASK_WORK_NOTIFY: a PTRACE_EVENT_STOP trap that is due. */
void ptrace_trap_work(void);
/* A stop signal's default action on a traced task: its group stop, true; untraced: false. */
bool ptrace_group_stop(int sig);
/* SIGCONT sent to t: a SEIZEd tracee traps (PTRACE_EVENT_STOP), a listening one wakes for it. */
void ptrace_sigcont(struct task *t);
/* wait: a zombie traced by another than waiter waits for its tracer to reap it first. */
bool ptrace_zombie_hidden(const struct task *c, const struct task *waiter);
/* wait: the tracer (not the parent) reaped c: it is detached and left to its parent (true). */
bool ptrace_zombie_reaped(struct task *c, const struct task *waiter);
/* Syscall-entry and -exit stops (PTRACE_SYSCALL); entry returns false to skip the call. */
bool ptrace_syscall_entry(struct trap_frame *tf);
void ptrace_syscall_exit(struct trap_frame *tf);

#endif
