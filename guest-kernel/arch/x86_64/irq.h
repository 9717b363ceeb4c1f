/*
 * Interrupt dispatch (the vectors: irq_vectors.h).  Interrupts enter
 * through the same trap frame and common path as exceptions (entry_irq.S
 * jumps into entry.S), so every entry and return variant applies to them
 * unchanged; trap_dispatch() hands vectors from IRQ_FIRST_VECTOR on to
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

/* One interrupt (vector >= IRQ_FIRST_VECTOR) from trap_dispatch(). */
void irq_dispatch(struct trap_frame *tf);

/* self_ipi.c */
void self_ipi_interrupt(struct trap_frame *tf);
#endif
