/*
 * Interrupt dispatch (the vectors: irq_vectors.h).  Interrupts enter
 * through the same trap frame and exits as exceptions (entry_irq.S uses
 * entry.S's USER_FAST_ENTRY), so every entry and return variant applies to
 * them unchanged.  From user mode the stub calls the handler; from kernel
 * mode trap_dispatch() hands vectors from IRQ_FIRST_VECTOR on to
 * irq_dispatch().
 *
 * The kernel itself always runs with IF=0 (interrupt gates, SFMASK): an
 * interrupt sent from kernel code stays pending in the APIC until the
 * return to user mode sets IF, and is taken there.
 */
#ifndef EL_IRQ_H
#define EL_IRQ_H

#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/irq_vectors.h"

/* The local APIC and the interrupt gates; after paging_init(). */
void irq_init(void);

/* One interrupt (vector >= IRQ_FIRST_VECTOR) from kernel mode, from trap_dispatch(). */
void irq_dispatch(struct trap_frame *tf);

/* The handlers the stubs of entry_irq.S call (each EOIs and counts what it must). */
void self_ipi_interrupt(struct trap_frame *tf); /* self_ipi.c */
void spurious_interrupt(struct trap_frame *tf);
#endif
