/*
 * Interrupt set-up and dispatch: the local APIC, one IDT gate per vector
 * with a handler, and the table from vector to handler.  From user mode
 * the gate's stub calls the handler itself (entry_irq.S; the stub without
 * or with PTI, chosen here at boot); from kernel mode trap_dispatch() calls
 * irq_dispatch(), which looks the handler up.  A vector without a handler
 * cannot arrive (its gate is not present: #NP, reported as an exception),
 * except from a misbehaving APIC, which gets an EOI and a line.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/desc.h"
#include "arch/x86_64/entry/entry.h"
#include "arch/x86_64/idle.h"
#include "arch/x86_64/irq.h"
#include "lib/kprintf.h"
#include "mm/pti.h"
#include "proc/timer.h"

/* Nothing is in service for a spurious interrupt: no EOI, nothing to count. */
void spurious_interrupt(struct trap_frame *tf)
{
	(void)tf;
}

static const struct {
	unsigned vector;
	const char *stub, *stub_pti; /* entry_irq.S: without PTI, with PTI */
	void (*handler)(struct trap_frame *);
} irq_vectors[] = {
	{IRQ_VECTOR_SELF_IPI, irq_stub_self_ipi, irq_stub_self_ipi_pti, self_ipi_interrupt},
	{IRQ_VECTOR_TIMER, irq_stub_timer, irq_stub_timer_pti, timer_interrupt},
	{IRQ_VECTOR_SPURIOUS, irq_stub_spurious, irq_stub_spurious_pti, spurious_interrupt},
};

static void (*irq_handlers[256 - IRQ_FIRST_VECTOR])(struct trap_frame *);

void irq_init(void)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(irq_vectors); i++) {
		idt_set_interrupt_gate(irq_vectors[i].vector,
				       (uint64_t)(pti.on ? irq_vectors[i].stub_pti
							 : irq_vectors[i].stub));
		irq_handlers[irq_vectors[i].vector - IRQ_FIRST_VECTOR] = irq_vectors[i].handler;
	}
	apic_init(IRQ_VECTOR_SPURIOUS);
}

/* Kernel mode only: from user mode the stubs call the handlers. */
void irq_dispatch(struct trap_frame *tf)
{
	unsigned v = (unsigned)tf->vector - IRQ_FIRST_VECTOR;

	idle_halt_skip(tf); /* it came between the idle STI and HLT: re-check, do not halt */
	if (__builtin_expect(v < ARRAY_SIZE(irq_handlers) && irq_handlers[v], 1)) {
		irq_handlers[v](tf);
		return;
	}
	kprintf("irq: unexpected interrupt vector 0x%lx at rip %lx: EOI and ignored\n",
		tf->vector, tf->rip);
	apic_eoi();
}
