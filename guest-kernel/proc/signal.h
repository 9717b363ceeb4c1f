/*
 * Signals (signal.c): sending, the pending sets, delivery on the return to
 * user mode, rt_sigreturn, and the per-task life cycle of the signal state.
 * The user-visible layouts and numbers are signal_frame.h's; the frame's
 * rules sigframe.h's.
 */
#ifndef EL_PROC_SIGNAL_H
#define EL_PROC_SIGNAL_H

#include "arch/x86_64/entry/trapframe.h"
#include "proc/signal_frame.h"
#include "proc/signal_types.h"

struct task;

/*
 * A new task's signal state: CLONE_SIGHAND shares parent's actions, else a
 * copy; the mask is inherited, nothing is pending; the alternate stack is
 * inherited unless the child shares the address space without vfork.
 * parent NULL (init): fresh default actions.  0 or -ENOMEM.
 */
int signal_task_init(struct task *child, const struct task *parent, uint64_t clone_flags);
/* Drops the task's reference to the actions (exit); its share of process signals moves on. */
void signal_task_release(struct task *t);
/* exec: handlers back to SIG_DFL (ignored ones stay ignored), no alternate stack. */
void signal_exec_reset(struct task *t);

/*
 * Sends sig to t (group: process-directed, any thread may take it): 0, or
 * -EINVAL for a bad number, -EAGAIN for a real-time signal past
 * RLIMIT_SIGPENDING that is not kill's (SI_USER).  Ignored signals are dropped; the taker gets
 * TASK_WORK_SIGPENDING and is woken from an interruptible sleep (SIGKILL:
 * every thread of the process, from any sleep or stop).  info NULL: SI_KERNEL.
 */
int signal_send(struct task *t, int sig, const struct ksiginfo *info, bool group);
/*
 * A synchronous signal of the current task from an exception or from the
 * return to user mode (force_sig_fault): unblocked and unignored if need
 * be.  tf is the user frame of the fault: a vector below 32 becomes the
 * sigcontext's trapno and err (tf->error; 0 for #DB, whose slot holds DR6).
 */
void signal_force(const struct trap_frame *tf, int sig, int code, uint64_t addr);
/* No handler will run for sig (default or ignored action, or blocked): the trap is worth a log line. */
bool signal_unhandled(const struct task *t, int sig);
/* An unblocked signal is pending for t (interrupts a sleep). */
bool signal_pending(const struct task *t);
/*
 * TASK_WORK_SIGPENDING recomputed for t (Linux recalc_sigpending_tsk): after a
 * stop, since a signal sent while t was stopped found no taker and set nothing.
 */
void signal_recalc(struct task *t);
/*
 * The return to user mode with TASK_WORK_SIGPENDING: acts on pending
 * signals until one runs a handler (the frame is rewritten) or none is
 * left (the bit is cleared, an interrupted syscall restarts).
 */
void signal_deliver(struct trap_frame *tf);

/* rt_sigreturn on the current task's frame: the restored RAX, or 0 and SIGSEGV for a bad frame. */
long signal_sigreturn(struct trap_frame *tf);
/* A new mask for t (SIGKILL and SIGSTOP stay unblocked); pending state recomputed. */
void signal_set_blocked(struct task *t, uint64_t mask);
/* Takes one pending signal in allowed (blocked or not): its number, 0 if none. */
int signal_dequeue(struct task *t, uint64_t allowed, struct ksiginfo *info);
/* The siginfo_t user mode gets for a pending signal (the union part its kind uses). */
void signal_siginfo_user(struct el_siginfo *si, const struct ksiginfo *k);
/* rt_sigaction changed sig's action: a now-ignored pending signal is discarded. */
void signal_action_changed(struct task *t, int sig);
/* The largest frame a signal needs (AT_MINSIGSTKSZ): frame, FPU image and alignment. */
uint64_t signal_min_stack_size(void);

#endif
