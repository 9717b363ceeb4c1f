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

void timer_update(const struct task *next)
{
	if (runnable_besides(next) && (!tm.in_region || timer_region_tick))
		arm_ns(SCHED_QUANTUM_NS);
	else
		stop();
}

void timer_arm_deadline(uint64_t deadline_ns)
{
	uint64_t now;

	if (!deadline_ns) {
		stop();
		return;
	}
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
	/* Still others to run: the next quantum (schedule() re-arms it on a switch too). */
	if (current && (current->work & TASK_WORK_RESCHED) == 0 && runnable_besides(current) &&
	    (!tm.in_region || timer_region_tick))
		arm_ns(SCHED_QUANTUM_NS);
}
