/*
 * The scheduler (sched.c): round robin over runnable tasks on one CPU, a
 * non-preemptible kernel, and blocking on a key (any address) with an
 * optional deadline.  Interrupts are off in the kernel except in the idle
 * loop, which halts until the timer or an interrupt makes a task runnable.
 *
 * Preemption: the local APIC timer runs only while more than one task is
 * runnable (or a sleeper has a deadline) and, inside a measured region,
 * only with the knob sched.region_tick=on; its interrupt sets
 * TASK_WORK_RESCHED, and the return to user mode switches.
 */
#ifndef EL_PROC_SCHED_H
#define EL_PROC_SCHED_H

#include "arch/x86_64/entry/trapframe.h"
#include "proc/process.h"

/* Quantum of a task when others are runnable. */
#define SCHED_QUANTUM_NS 4000000ull

/*
 * Gives up the CPU: the next runnable task runs (current again if it is the
 * only one).  Call with current->state already set for a block or exit.
 */
void schedule(void);

/*
 * Blocks current on chan until wake_up(chan), the deadline (CLOCK_MONOTONIC
 * ns, 0: none) or, if interruptible, a pending signal.  Returns 0 (woken),
 * -EINTR (a signal) or -ETIMEDOUT.  The caller re-checks its condition.
 */
int sched_block(const void *chan, uint64_t deadline_ns, bool interruptible);

/* Makes every task blocked on chan runnable (returns how many). */
unsigned wake_up(const void *chan);

/* Makes t runnable if it sleeps interruptibly (a signal arrived): wake_reason -EINTR. */
void wake_signal(struct task *t);

/* Makes a stopped or blocked task runnable (ptrace resume, SIGCONT, SIGKILL). */
void wake_task(struct task *t);

/*
 * The slow path of every return to user mode (current->work != 0): the
 * reschedule, ptrace stops, signal delivery; loops until no work is left.
 * May change the frame (a signal handler's context).
 */
void exit_to_user_work(struct trap_frame *tf);

/* A new task's first code on its own stack, called by switch.S ret_from_fork. */
void sched_tail_fork(struct trap_frame *tf);

/* Runnable tasks other than current (for the timer decision). */
unsigned sched_nr_runnable(void);
/* Time the CPU spent idle (halted or polling for a deadline) since boot (/proc/uptime, stat). */
extern uint64_t sched_idle_ns;

/* The timer interrupt's handler (irq.c). */
void sched_tick(struct trap_frame *tf);

#endif
