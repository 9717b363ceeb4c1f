/*
 * The idle halt (idle.S): STI then HLT, so that an interrupt pending at
 * the STI ends the halt.  That relies on STI's one-instruction interrupt
 * shadow, which nested SVM under QEMU TCG does not always keep: the
 * interrupt can arrive between the STI and the HLT, its handler wakes the
 * sleeper and stops the timer, and the HLT then waits for an interrupt
 * that will never come (measured: 4 of 40 boots with a deadline passing
 * just before the halt).  So every interrupt from kernel mode passes its
 * frame to idle_halt_skip() (irq_dispatch): an interrupted RIP at the HLT
 * is moved past it, the halt does not happen, and idle re-checks.
 */
#ifndef EL_ARCH_IDLE_H
#define EL_ARCH_IDLE_H

#include "arch/x86_64/entry/trapframe.h"

/* With IF=0: enables interrupts, halts until one comes, disables them again. */
void idle_halt(void);

/* The HLT instruction of idle_halt (one byte, 0xf4). */
extern const char idle_halt_insn[];

/* Times idle_halt_skip() moved past the HLT (the record's guest.timer.halt_skips). */
extern uint32_t idle_halt_skips;

/* The interrupt came between idle_halt's STI and HLT: return past the HLT. */
static inline void idle_halt_skip(struct trap_frame *tf)
{
	if (tf->rip == (uint64_t)idle_halt_insn) {
		tf->rip++;
		idle_halt_skips++;
	}
}

#endif
