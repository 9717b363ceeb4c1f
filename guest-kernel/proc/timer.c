/*
 * Timer policy (timer.h).  Tickless: nothing runs the timer while one task
 * has the CPU to itself, so single-process benchmarks never see it.
 */
#include "arch/x86_64/apic.h"
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
	uint64_t interrupts;
} tm;

void timer_init(void)
{
	tm.usable = apic_timer_init(IRQ_VECTOR_TIMER);
	timer_region_tick = kernel_cmdline.requested[EL_CFG_REGION_TICK] == EL_ON;
}

static void arm_ns(uint64_t delta_ns)
{
	if (!tm.usable)
		return;
	apic_timer_arm(delta_ns, time_tsc_khz());
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

	for (i = 0; i < TASK_MAX; i++)
		n += task_table[i].state == TASK_RUNNABLE && &task_table[i] != next;
	return n;
}

/* The earliest deadline of a sleeper, 0 if none. */
static uint64_t next_deadline(void)
{
	uint64_t d = 0;
	unsigned i;

	for (i = 0; i < TASK_MAX; i++) {
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
		timer_arm_deadline(d);
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

void timer_arm_deadline(uint64_t deadline_ns)
{
	uint64_t now;

	if (!deadline_ns) {
		stop();
		return;
	}
	tm.quantum = false;
	now = time_monotonic_ns();
	arm_ns(deadline_ns > now ? deadline_ns - now : 1);
}

void timer_region(bool active)
{
	tm.in_region = active;
	if (active && !timer_region_tick)
		stop();
}

uint64_t timer_interrupts(void)
{
	return tm.interrupts;
}

void timer_interrupt(struct trap_frame *tf)
{
	tm.armed = false;
	tm.interrupts++;
	cpu0.nr_interrupts++;
	apic_eoi();
	sched_tick(tf);
	/* Others to run or sleepers to wake: schedule() re-arms on a switch, this covers no switch. */
	if (current)
		reprogram(current, true);
}
