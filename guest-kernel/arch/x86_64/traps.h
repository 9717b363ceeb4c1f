/*
 * Exception handling: dispatch (traps.c), fatal reports (trap_report.c) and
 * the exception table of the _safe accessors (extable.c).
 */
#ifndef EL_TRAPS_H
#define EL_TRAPS_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

/* Resumes a faulting _safe accessor: true if tf->rip was in the table. */
bool extable_fixup(struct trap_frame *tf);

/* user_traps.c: #PF (demand paging, then SIGSEGV or the fixup); true: the process ended. */
void page_fault(struct trap_frame *tf);
bool user_trap_kill(const struct trap_frame *tf);
/* debug.c: #DB (DR6 into the frame's error slot for user mode). */
void debug_trap(struct trap_frame *tf);

/* Prints everything about the exception on the console and exits the VM. */
__noreturn void trap_report_fatal(const struct trap_frame *tf);

#endif
