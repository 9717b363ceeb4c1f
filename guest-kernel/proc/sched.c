/*
 * The scheduler (sched.h): round robin over task_table, one CPU, switches
 * only here.  A switch is: the arch state (FS/GS base, FPU, I/O bitmap,
 * LDT), the address space when it differs, the kernel stack entries from
 * user mode use, `current`, then the kernel stack itself (switch.S).
 *
 * Idle: with nothing runnable the CPU halts with interrupts on, the timer
 * armed for the earliest sleeper's deadline (timer.h); any interrupt ends
 * the halt, and every wake re-checks every deadline against the clock.  A
 * deadline that has passed is never halted for, and one nearer than the
 * timer's shortest period is polled.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idle.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/switch.h"
#include "lib/console.h"
#include "lib/panic.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/rlimit.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/task_alloc.h"
#include "proc/timer.h"
#include "sys/errno.h"
#include "time/time.h"

static bool task_wakes_by_deadline(const struct task *t, uint64_t now)
{
	return (t->state == TASK_BLOCKED || t->state == TASK_BLOCKED_NOINTR) &&
	       t->wake_deadline_ns && t->wake_deadline_ns <= now;
}

/* Sleepers whose deadline passed become runnable; returns the earliest deadline left (0: none). */
static uint64_t wake_expired(void)
{
	uint64_t now = 0, next = 0;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *t = &task_table[i];

		if (!t->wake_deadline_ns || (t->state != TASK_BLOCKED && t->state != TASK_BLOCKED_NOINTR))
			continue;
		if (!now)
			now = time_monotonic_ns();
		if (task_wakes_by_deadline(t, now)) {
			t->wake_reason = -ETIMEDOUT;
			t->state = TASK_RUNNABLE;
		} else if (!next || t->wake_deadline_ns < next) {
			next = t->wake_deadline_ns;
		}
	}
	return next;
}

/* The next runnable task after prev in table order (prev itself last); NULL if none. */
static struct task *pick_next(const struct task *prev)
{
	unsigned start = (unsigned)(prev - task_table), i;

	for (i = 1; i <= task_slots; i++) {
		struct task *t = &task_table[(start + i) % task_slots];

		if (t->state == TASK_RUNNABLE)
			return t;
	}
	return 0;
}

unsigned sched_nr_runnable(void)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++)
		n += task_table[i].state == TASK_RUNNABLE && &task_table[i] != current;
	return n;
}

uint32_t idle_halt_skips;

uint64_t sched_idle_ns;

/* Halts until something is runnable; interrupts are on only inside the halt. */
static struct task *idle(const struct task *prev)
{
	uint64_t since = time_monotonic_ns();
	struct task *next;

	for (;;) {
		uint64_t deadline = wake_expired();

		next = pick_next(prev);
		if (next) {
			sched_idle_ns += time_monotonic_ns() - since;
			return next;
		}
		if (!deadline)
			panic("scheduler: no task can run and none sleeps with a deadline "
			      "(every task waits for another): deadlock");
		console_flush(); /* the wait may be long (and the flush takes time: armed after it) */
		if (!timer_idle_arm(deadline)) {
			while (time_monotonic_ns() < deadline)
				__asm__ __volatile__("pause" ::: "memory");
			continue;
		}
		idle_halt();
	}
}

/* Work the incoming task does first: free a task that died running (its stack was in use). */
static void finish_switch(void)
{
	task_reap_dead();
}

static void switch_to(struct task *prev, struct task *next)
{
	arch_task_switch(prev, next);
	if (next->mm && next->mm != prev->mm)
		mm_activate(next->mm);
	percpu_set_kernel_stack(next->stack_base + TASK_STACK_SIZE);
	current = next;
	switch_stacks(&prev->kernel_rsp, next->kernel_rsp);
	finish_switch();
}

void schedule(void)
{
	struct task *prev = current, *next, *first;
	bool voluntary = prev->state != TASK_RUNNABLE;
	uint64_t now = 0; /* one clock read for both sides of a switch */

	prev->work &= ~TASK_WORK_RESCHED;
	wake_expired();
	next = first = pick_next(prev);
	/* prev leaves the CPU (to another task or to the idle loop): its time stops. */
	if (first != prev)
		now = acct_out(prev, voluntary);
	if (!next) {
		next = idle(prev);
		now = 0;
	}
	timer_update(next);
	if (first != prev)
		acct_in(next, now);
	if (next != prev)
		switch_to(prev, next);
}

/* The first code of a new task, on its own stack (switch.S ret_from_fork). */
void sched_tail_fork(struct trap_frame *tf)
{
	finish_switch();
	task_first_run(current);
	if (current->work)
		exit_to_user_work(tf);
}

int sched_block(const void *chan, uint64_t deadline_ns, bool interruptible)
{
	struct task *t = current;

	if (interruptible && signal_pending(t))
		return -EINTR;
	t->wait_chan = chan;
	t->wake_deadline_ns = deadline_ns;
	t->wake_reason = 0;
	t->state = interruptible ? TASK_BLOCKED : TASK_BLOCKED_NOINTR;
	schedule();
	t->wait_chan = 0;
	t->wake_deadline_ns = 0;
	return t->wake_reason;
}

unsigned wake_up(const void *chan)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++) {
		struct task *t = &task_table[i];

		if ((t->state == TASK_BLOCKED || t->state == TASK_BLOCKED_NOINTR) &&
		    t->wait_chan == chan) {
			t->wake_reason = 0;
			t->state = TASK_RUNNABLE;
			n++;
		}
	}
	if (n)
		timer_kick();
	return n;
}

void wake_signal(struct task *t)
{
	if (t->state == TASK_BLOCKED) {
		t->wake_reason = -EINTR;
		t->state = TASK_RUNNABLE;
		timer_kick();
	}
}

void wake_task(struct task *t)
{
	if (t->state == TASK_BLOCKED || t->state == TASK_BLOCKED_NOINTR ||
	    t->state == TASK_STOPPED) {
		t->wake_reason = -EINTR;
		t->state = TASK_RUNNABLE;
		timer_kick();
	}
}

void sched_tick(struct trap_frame *tf)
{
	acct_tick((tf->cs & 3) == 3);
	wake_expired();
	if (sched_nr_runnable())
		current->work |= TASK_WORK_RESCHED;
}

void exit_to_user_work(struct trap_frame *tf)
{
	struct task *t = current;
	uint32_t w;

	/* Bits that stay while the task runs on (the ptrace modes, espfix): never loop on them. */
	while ((w = t->work & ~(TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP | TASK_WORK_ESPFIX))) {
		if (w & TASK_WORK_RESCHED) {
			schedule();
			continue;
		}
		if (w & TASK_WORK_NOTIFY) {
			t->work &= ~TASK_WORK_NOTIFY;
			if (t->group_exiting)
				task_exit(t->group_leader->exit_code);
			ptrace_trap_work();
			continue;
		}
		if (w & TASK_WORK_SIGPENDING) {
			signal_deliver(tf);
			/* signal_deliver clears the bit when nothing deliverable is left. */
			continue;
		}
		/* TASK_WORK_FRAME: only the syscall return reads it. */
		t->work &= ~TASK_WORK_FRAME;
	}
}
