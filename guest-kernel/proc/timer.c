/*
 * Timer policy (timer.h).  Tickless: nothing runs the timer while one task
 * has the CPU to itself, so single-process benchmarks never see it.
 *
 * The LAPIC timer runs periodic (apic.c): armed for a delay, it fires after
 * that delay and again every period until re-armed, which every interrupt
 * does.  So a lost or late interrupt costs at most one more period, never
 * the wait: the repeat is the backstop.  The period is the delay, at most
 * TIMER_BACKSTOP_NS (a longer wait wakes the CPU every backstop period to
 * re-check the deadlines), at least TIMER_MIN_PERIOD_NS (KVM's floor for a
 * periodic timer); idle polls a deadline nearer than that instead of
 * halting for it.
 *
 * Each interrupt records how late it came against the time it was armed
 * for, and one that came a whole period or more late counts as a fallback
 * (the record's guest.timer): under nested SVM in QEMU TCG beside CPU hogs,
 * a fifth of the interrupts of a 1 ms sleep loop come a period late or
 * more.  The hang that was blamed on a lost interrupt was another thing:
 * the interrupt came between idle's STI and HLT (arch/x86_64/idle.h).
 * This timer does not cure that one; idle_halt_skip() does.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/idle.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/percpu.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/timer.h"
#include "config.h"
#include "time/time.h"

bool timer_region_tick;

static struct {
	bool usable;
	bool armed;
	bool quantum; /* armed for a quantum (not just a sleeper's deadline) */
	bool in_region;
	uint64_t armed_at_ns; /* CLOCK_MONOTONIC when armed */
	uint64_t period_ns;   /* every interrupt re-arms or stops it: one period is due at a time */
	struct el_timer_stats stats;
} tm;

void timer_init(void)
{
	tm.usable = apic_timer_init(IRQ_VECTOR_TIMER);
	/* A whole-program region is preempted as any program is (abi.h, el_region_scope). */
	timer_region_tick = kernel_cmdline.requested[EL_CFG_REGION_TICK] == EL_ON ||
			    kernel_cmdline.region_scope == EL_REGION_SCOPE_WHOLE;
}

/* The first interrupt delay_ns from now, then every period. */
static void arm_ns(uint64_t delay_ns)
{
	if (!tm.usable)
		return;
	if (delay_ns > TIMER_BACKSTOP_NS)
		delay_ns = TIMER_BACKSTOP_NS;
	if (delay_ns < TIMER_MIN_PERIOD_NS)
		delay_ns = TIMER_MIN_PERIOD_NS;
	tm.armed_at_ns = time_monotonic_ns();
	tm.period_ns = delay_ns;
	apic_timer_arm(delay_ns, time_tsc_khz());
	tm.armed = true;
}

static void stop(void)
{
	if (tm.armed)
		apic_timer_stop();
	tm.armed = false;
}

static unsigned runnable_besides(const struct task *next)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++)
		n += task_table[i].state == TASK_RUNNABLE && &task_table[i] != next;
	return n;
}

/* The earliest deadline of a sleeper, 0 if none. */
static uint64_t next_deadline(void)
{
	uint64_t d = 0;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		const struct task *t = &task_table[i];

		if ((t->state == TASK_BLOCKED || t->state == TASK_BLOCKED_NOINTR) && t->wake_deadline_ns &&
		    (!d || t->wake_deadline_ns < d))
			d = t->wake_deadline_ns;
	}
	return d;
}

static bool allowed(void)
{
	return !tm.in_region || timer_region_tick;
}

static void arm_deadline(uint64_t deadline_ns)
{
	uint64_t now = time_monotonic_ns();

	tm.quantum = false;
	arm_ns(deadline_ns > now ? deadline_ns - now : 0);
}

/* fresh: a new quantum even if one runs (a switch); else keep an armed quantum. */
static void reprogram(const struct task *running, bool fresh)
{
	uint64_t d;

	if (allowed() && runnable_besides(running)) {
		if (fresh || !tm.armed || !tm.quantum) {
			arm_ns(SCHED_QUANTUM_NS);
			tm.quantum = true;
		}
		return;
	}
	d = allowed() ? next_deadline() : 0;
	tm.quantum = false;
	if (d)
		arm_deadline(d);
	else
		stop();
}

void timer_update(const struct task *next)
{
	reprogram(next, true);
}

void timer_kick(void)
{
	if (current)
		reprogram(current, false);
}

bool timer_idle_arm(uint64_t deadline_ns)
{
	uint64_t now = time_monotonic_ns();

	if (!tm.usable || deadline_ns < now + TIMER_MIN_PERIOD_NS) {
		tm.stats.polls++;
		stop();
		return false;
	}
	arm_deadline(deadline_ns);
	return true;
}

void timer_region(bool active)
{
	tm.in_region = active;
	if (active && !timer_region_tick)
		stop();
}

void timer_stats(struct el_timer_stats *out)
{
	*out = tm.stats;
	out->halt_skips = idle_halt_skips;
}

/*
 * How late this interrupt came against the end of the first period since
 * arming; a whole period or more: the one due then was lost or delayed, and
 * the periodic repeat stood in (a fallback).
 */
static void account(void)
{
	uint64_t now = time_monotonic_ns(), due, late;

	tm.stats.interrupts++;
	if (!tm.armed || !tm.period_ns)
		return;
	due = tm.armed_at_ns + tm.period_ns;
	late = now > due ? now - due : 0;
	tm.stats.late_last_ns = late;
	if (late > tm.stats.late_max_ns)
		tm.stats.late_max_ns = late;
	if (late >= tm.period_ns)
		tm.stats.fallbacks++;
}

void timer_interrupt(struct trap_frame *tf)
{
	account();
	cpu0.nr_interrupts++;
	apic_eoi();
	sched_tick(tf);
	/* Others to run or sleepers to wake: schedule() re-arms on a switch, this covers no switch. */
	if (current)
		reprogram(current, true);
	else
		stop(); /* the periodic repeat must not fire again */
}
