/*
 * The scheduler's timer policy (timer.c) over the local APIC one-shot
 * timer: armed for a quantum while another task is runnable, for the
 * earliest sleeper's deadline while the CPU idles, and stopped otherwise.
 * Inside a measured region the quantum is not armed unless asked for
 * (sched.region_tick=on), so benchmark loops see no timer interrupt.
 */
#ifndef EL_PROC_TIMER_H
#define EL_PROC_TIMER_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

struct task;

/* After irq_init: the vector's gate and the APIC timer, masked. */
void timer_init(void);
/* The task about to run is next: arm a quantum if others wait, else stop the timer. */
void timer_update(const struct task *next);
/* A task became runnable (wake, clone): arm a quantum for the running one if none is armed. */
void timer_kick(void);
/* Idle: wake the CPU at deadline (CLOCK_MONOTONIC ns; 0: no deadline, timer stopped). */
void timer_arm_deadline(uint64_t deadline_ns);
/* Region begin/end (sys/region.c): no quantum inside unless region_tick. */
void timer_region(bool active);
/* The knob sched.region_tick. */
extern bool timer_region_tick;
/* Timer interrupts so far (the record's sched.timer_interrupts). */
uint64_t timer_interrupts(void);
/* The interrupt handler (irq.c). */
void timer_interrupt(struct trap_frame *tf);

#endif
