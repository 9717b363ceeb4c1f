/*
 * The scheduler's timer policy (timer.c) over the local APIC timer, run
 * periodic as the backstop for a lost interrupt: armed for a quantum while
 * another task is runnable, for the earliest sleeper's deadline while the
 * CPU idles, and stopped otherwise.
 * Inside a measured region the quantum is not armed unless asked for
 * (sched.region_tick=on), so benchmark loops see no timer interrupt.  A
 * whole-program region (el.region=whole) is never held off: it is the
 * program as it runs anywhere, preempted, with its interrupts counted.
 */
#ifndef EL_PROC_TIMER_H
#define EL_PROC_TIMER_H

#include "arch/x86_64/entry/trapframe.h"
#include "entrylab/abi.h"
#include "kernel.h"

struct task;

/* The longest period: a longer wait is re-checked this often (and a lost interrupt costs this). */
#define TIMER_BACKSTOP_NS 10000000ull
/* The shortest period (KVM's floor for a periodic LAPIC timer, min_timer_period_us). */
#define TIMER_MIN_PERIOD_NS 200000ull

/* After irq_init: the vector's gate and the APIC timer, masked. */
void timer_init(void);
/* The task about to run is next: arm a quantum if others wait, else stop the timer. */
void timer_update(const struct task *next);
/* A task became runnable (wake, clone): arm a quantum for the running one if none is armed. */
void timer_kick(void);
/*
 * Idle, about to halt: arm the timer for deadline (CLOCK_MONOTONIC ns).
 * False when the deadline is nearer than TIMER_MIN_PERIOD_NS (or there is
 * no timer): do not halt, poll it.
 */
bool timer_idle_arm(uint64_t deadline_ns);
/* Region begin/end (sys/region.c): no quantum inside unless timer_region_tick. */
void timer_region(bool active);
/* The knob sched.region_tick, or a whole-program region (el.region=whole). */
extern bool timer_region_tick;
/* Interrupts, lateness, fallbacks and polls so far (the report's timer, the record's guest.timer). */
void timer_stats(struct el_timer_stats *out);
/* The interrupt handler (irq.c). */
void timer_interrupt(struct trap_frame *tf);

#endif
