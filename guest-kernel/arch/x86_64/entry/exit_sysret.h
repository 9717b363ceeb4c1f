/*
 * SYSRET after exceptions and interrupts (entry.ret=sysret): the C half of
 * entry.S's exit_to_user.  Layout of what goes on the user stack:
 * vdso/vsysret.h.
 */
#ifndef EL_EXIT_SYSRET_H
#define EL_EXIT_SYSRET_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

/* After vdso_init(): finds the trampoline in the mapped vDSO image; false without one. */
bool exit_sysret_init(void);

/*
 * Called by exit_to_user (IF = 0, kernel CR3) for a frame that returns to
 * user mode.  Returns 1 after making the frame SYSRET-able (user stack
 * written, RCX = trampoline, R11 = RFLAGS, RSP lowered), 0 when the return
 * must IRET; the frame is unchanged then.
 */
int exit_sysret_prepare(struct trap_frame *tf);

/* One console line: SYSRET returns taken and the IRET fallbacks by reason. */
void exit_sysret_print_stats(void);

#endif
