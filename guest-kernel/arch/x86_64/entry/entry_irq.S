/*
 * Interrupt entries, one pair per vector irq.c installs: USER_FAST_ENTRY
 * (calling.h) with the vector's handler, without PTI and with it; irq.c
 * puts one of the two in the IDT at boot.  Each builds exactly the frame an
 * exception stub of entry.S builds for a vector without error code (a 0
 * error code, then the vector), calls the handler straight from the stub
 * (the handler EOIs and counts) and leaves through exit_to_user(_pti), so
 * interrupts share the frame and every return variant with exceptions.
 * From kernel mode (the idle loop's STI; HLT) they take trap_kernel and
 * trap_dispatch() -> irq_dispatch().
 * In .entry.text: page-table isolation maps it with the rest of the entry.
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/irq_vectors.h"

	.section .entry.text, "ax"

/*
 * irq_stub_NAME, irq_stub_NAME_pti
 * In:  the CPU's interrupt frame (SS, RSP, RFLAGS, CS, RIP; no error code)
 *      on TSS.RSP0's stack from user mode, the current one from kernel
 *      mode; IF = 0 (interrupt gate).
 * Out: as USER_FAST_ENTRY: handler(RDI = the frame), then the exit.
 */
.macro IRQ_STUB name, vec, handler
	USER_FAST_ENTRY irq_stub_\name, \vec, \handler, pti=0, errcode=0
	USER_FAST_ENTRY irq_stub_\name\()_pti, \vec, \handler, pti=1, errcode=0
.endm

	IRQ_STUB self_ipi, IRQ_VECTOR_SELF_IPI, self_ipi_interrupt
	IRQ_STUB timer, IRQ_VECTOR_TIMER, timer_interrupt
	IRQ_STUB spurious, IRQ_VECTOR_SPURIOUS, spurious_interrupt

	.section .note.GNU-stack, "", @progbits
