/*
 * The boot CPU's local APIC: just enough for self-IPIs and the timer
 * (irq.c, proc/timer.c): enable, spurious vector, local sources masked,
 * EOI, self-IPI, the LVT timer (periodic count-down).
 */
#ifndef EL_APIC_H
#define EL_APIC_H

#include "arch/x86_64/cpu.h"
#include "kernel.h"

/* Register offsets in the xAPIC page; the x2APIC MSR is 0x800 + offset / 16. */
#define APIC_EOI 0x0b0
#define APIC_ICR_LOW 0x300
#define X2APIC_MSR(off) (0x800u + ((off) >> 4))
#define X2APIC_SELF_IPI 0x83f
#define ICR_LEVEL_ASSERT BIT(14)
#define ICR_DEST_SELF BIT(18) /* destination shorthand 01: self */

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

/* The mode and the xAPIC page (apic.c sets them at apic_init()); for the inlines below. */
struct apic_state {
	enum apic_mode mode;
	volatile uint32_t *xapic_regs;
};
extern struct apic_state apic;

/*
 * End of interrupt for the one in service.  Not for the spurious vector.
 * Inline: the interrupt handlers call it straight from their entry.
 */
static inline void apic_eoi(void)
{
	if (apic.mode == APIC_X2APIC)
		wrmsr(X2APIC_MSR(APIC_EOI), 0);
	else
		apic.xapic_regs[APIC_EOI / 4] = 0;
}

/*
 * A fixed-delivery IPI to this CPU; pending (IRR) until IF=1 and the
 * priority allows.  xAPIC: shorthand "self", no destination (ICR high);
 * KVM and QEMU never show the ICR busy.
 */
static inline void apic_self_ipi(uint8_t vector)
{
	if (apic.mode == APIC_X2APIC)
		wrmsr(X2APIC_SELF_IPI, vector);
	else
		apic.xapic_regs[APIC_ICR_LOW / 4] = ICR_DEST_SELF | ICR_LEVEL_ASSERT | vector;
}

/*
 * The timer (apic.c), periodic count-down mode: set up masked; arm: the
 * first interrupt period_ns from now, then one every period_ns until
 * re-armed or stopped; stop: masked, no interrupt pending from it.
 */
bool apic_timer_init(uint8_t vector);
void apic_timer_arm(uint64_t period_ns, uint64_t tsc_khz);
void apic_timer_stop(void);

#endif
