/*
 * Exception handling: dispatch (traps.c), fatal reports (trap_report.c),
 * the exception table of the _safe accessors (extable.c) and the faults of
 * the IRET to user mode (bad_iret.c).
 */
#ifndef EL_TRAPS_H
#define EL_TRAPS_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

/* C side of the exception and interrupt entry (entry.S): handles one, may change the frame (fixups). */
void trap_dispatch(struct trap_frame *tf);

/*
 * bad_iret.c, called by entry.S when an IRET to user mode faulted: kf is the
 * kernel-mode frame of that fault; returns the user frame to dispatch it with.
 */
struct trap_frame *bad_iret_frame(const struct trap_frame *kf);

/* Resumes a faulting _safe accessor: true if tf->rip was in the table. */
bool extable_fixup(struct trap_frame *tf);

/*
 * user_traps.c: #PF (demand paging, then SIGSEGV or the fixup): from user
 * mode (called by page_fault_entry, entry.S) and from kernel mode
 * (trap_dispatch()).  user_trap_kill: a user exception's signal; true: it
 * was one.
 */
void page_fault(struct trap_frame *tf);
void page_fault_kernel(struct trap_frame *tf);
bool user_trap_kill(const struct trap_frame *tf);
/* debug.c: #DB (DR6 into the frame's error slot for user mode). */
void debug_trap(struct trap_frame *tf);

/* Prints everything about the exception on the console and exits the VM. */
__noreturn void trap_report_fatal(const struct trap_frame *tf);

#endif
