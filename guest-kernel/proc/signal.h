/*
 * Signals (signal.c): sending, the pending sets, delivery on the return to
 * user mode, and the per-task life cycle of the signal state.
 */
#ifndef EL_PROC_SIGNAL_H
#define EL_PROC_SIGNAL_H

#include "arch/x86_64/trapframe.h"
#include "proc/signal_types.h"

struct task;

/*
 * A new task's signal state: CLONE_SIGHAND shares parent's actions, else a
 * copy; the mask is inherited, nothing is pending.  parent NULL (init):
 * fresh default actions.  0 or -ENOMEM.
 */
int signal_task_init(struct task *child, const struct task *parent, uint64_t clone_flags);
/* Drops the task's reference to the actions (exit). */
void signal_task_release(struct task *t);
/* exec: handlers back to SIG_DFL (ignored ones stay ignored), no alternate stack. */
void signal_exec_reset(struct task *t);

/* Sends sig to t (group: process-directed).  0, or -EINVAL for a bad number. */
int signal_send(struct task *t, int sig, const struct ksiginfo *info, bool group);
/* A synchronous signal of the current task from an exception (force_sig_fault). */
void signal_force(struct trap_frame *tf, int sig, int code, uint64_t addr);
/* An unblocked signal is pending for t (interrupts a sleep). */
bool signal_pending(const struct task *t);
/* The return to user mode with TASK_WORK_SIGPENDING: acts on one pending signal. */
void signal_deliver(struct trap_frame *tf);

#endif
