/*
 * The interrupt vectors (C and asm: entry_irq.S builds one stub per vector
 * that has a handler, irq.c installs them).  Vectors below
 * IRQ_FIRST_VECTOR are exceptions.
 */
#ifndef EL_IRQ_VECTORS_H
#define EL_IRQ_VECTORS_H

#define IRQ_FIRST_VECTOR 32
#define IRQ_VECTOR_SELF_IPI 0xec /* EL_SYS_SELF_IPI's chain (self_ipi.c) */
#define IRQ_VECTOR_TIMER 0xef    /* the local APIC timer: preemption and sleeps (proc/timer.c) */
#define IRQ_VECTOR_SPURIOUS 0xff /* the APIC's spurious vector: no EOI */

#endif
