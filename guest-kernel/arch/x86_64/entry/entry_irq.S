/*
 * Interrupt stubs, one per vector irq.c installs.  Each builds exactly what
 * an exception stub of entry.S builds for a vector without error code (a 0
 * error code, then the vector) and continues in trap_common, so interrupts
 * share the frame, the dispatcher and every return variant with exceptions.
 * In .entry.text: page-table isolation maps it with the rest of the entry.
 */
#include "arch/x86_64/irq_vectors.h"

	.section .entry.text, "ax"

/*
 * irq_stub_NAME
 * In:  the CPU's interrupt frame (SS, RSP, RFLAGS, CS, RIP; no error code)
 *      on TSS.RSP0's stack from user mode, the current one from kernel
 *      mode; IF = 0 (interrupt gate).
 * Out: 0 and the vector pushed; jumps to trap_common.  Clobbers nothing.
 */
.macro IRQ_STUB name, vec
	.p2align 4
	.globl irq_stub_\name
irq_stub_\name:
	pushq	$0
	pushq	$\vec
	jmp	trap_common
.endm

	IRQ_STUB self_ipi, IRQ_VECTOR_SELF_IPI
	IRQ_STUB timer, IRQ_VECTOR_TIMER
	IRQ_STUB spurious, IRQ_VECTOR_SPURIOUS

	.section .note.GNU-stack, "", @progbits
