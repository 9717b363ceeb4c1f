/*
 * C side of exception entry: the dispatcher (the names of the vectors:
 * cpu_fault.c).
 *
 * Page faults go to user_traps.c (demand paging; from user mode #PF does not
 * come here: its entry calls page_fault() itself, as the interrupt stubs
 * call their handlers); other user-mode exceptions raise their signal;
 * kernel exceptions are fatal unless a _safe accessor or a uaccess copy
 * faulted (exception table).
 */
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/ioport.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/traps.h"
#include "lib/kprintf.h"

/*
 * An NMI has no source here but the VMM or a debugger (QEMU's `nmi`): as
 * Linux does with an NMI of unknown reason, say so and go on.  It arrives
 * on its IST stack through the paranoid entry, in any GS and CR3 state.
 */
static void nmi(struct trap_frame *tf)
{
	kprintf("NMI received (rip %lx, cs %lx): ignored\n", tf->rip, tf->cs);
}

/* Vectors with their own handler; the others are fatal unless a user trap or a fixup. */
static void (*const trap_handlers[NR_EXCEPTIONS])(struct trap_frame *) = {
	[1] = debug_trap,
	[2] = nmi,
	[14] = page_fault_kernel, /* from user mode: page_fault_entry, entry.S */
};

void trap_dispatch(struct trap_frame *tf)
{
	unsigned v = (unsigned)tf->vector;

	if (v >= IRQ_FIRST_VECTOR) {
		irq_dispatch(tf);
		return;
	}
	if (v < NR_EXCEPTIONS && trap_handlers[v]) {
		trap_handlers[v](tf);
		return;
	}
	/* Linux 6.1 skips CLI/STI at iopl(3) instead of raising SIGSEGV (ioport.c). */
	if (v == 13 && trap_from_user(tf) && ioport_fixup_cli_sti(tf))
		return;
	if (trap_from_user(tf) && user_trap_kill(tf))
		return;
	/* A #DF of the espfix IRET is the user's #GP (bad_iret.c). */
	if (v == 8 && espfix_df_fixup(tf))
		return;
	if (!trap_from_user(tf) && extable_fixup(tf))
		return;
	trap_report_fatal(tf);
}
