/*
 * The boot CPU's local APIC: just enough for self-IPIs and the timer
 * (irq.c, proc/timer.c): enable, spurious vector, local sources masked,
 * EOI, self-IPI, the LVT timer (TSC-deadline or one-shot).
 */
#ifndef EL_APIC_H
#define EL_APIC_H

#include "kernel.h"

enum apic_mode {
	APIC_NONE,  /* CPUID has no APIC (or enabling it failed): no interrupts */
	APIC_XAPIC, /* registers in the MMIO page, mapped uncached */
	APIC_X2APIC /* registers as MSRs 0x800-0x8ff */
};

/*
 * After paging_init() (the xAPIC page is mapped then) and before the first
 * interrupt can be sent.  Prints the mode on the console.
 */
void apic_init(uint8_t spurious_vector);

enum apic_mode apic_mode(void);
const char *apic_mode_name(void);

/* End of interrupt for the one in service.  Not for the spurious vector. */
void apic_eoi(void);

/* A fixed-delivery IPI to this CPU; pending (IRR) until IF=1 and the priority allows. */
void apic_self_ipi(uint8_t vector);

/* The one-shot timer (TSC-deadline mode when offered): set up masked; arm in ns from now; stop. */
bool apic_timer_init(uint8_t vector);
void apic_timer_arm(uint64_t delta_ns, uint64_t tsc_khz);
void apic_timer_stop(void);
bool apic_timer_deadline_mode(void);

#endif
