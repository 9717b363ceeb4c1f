/*
 * C side of exception entry: names of the vectors and the dispatcher.
 *
 * Page faults go to user_traps.c (demand paging); other user-mode exceptions
 * end the process; kernel exceptions are fatal unless a _safe accessor or a
 * uaccess copy faulted (exception table).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/ioport.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/traps.h"
#include "lib/kprintf.h"
#include "lib/panic.h"

static const struct {
	const char *mnemonic;
	const char *name;
} exceptions[NR_EXCEPTIONS] = {
	[0] = {"#DE", "divide error"},
	[1] = {"#DB", "debug"},
	[2] = {"NMI", "non-maskable interrupt"},
	[3] = {"#BP", "breakpoint"},
	[4] = {"#OF", "overflow"},
	[5] = {"#BR", "bound range exceeded"},
	[6] = {"#UD", "invalid opcode"},
	[7] = {"#NM", "device not available"},
	[8] = {"#DF", "double fault"},
	[9] = {"#MP", "coprocessor segment overrun"},
	[10] = {"#TS", "invalid TSS"},
	[11] = {"#NP", "segment not present"},
	[12] = {"#SS", "stack-segment fault"},
	[13] = {"#GP", "general protection"},
	[14] = {"#PF", "page fault"},
	[16] = {"#MF", "x87 floating-point error"},
	[17] = {"#AC", "alignment check"},
	[18] = {"#MC", "machine check"},
	[19] = {"#XM", "SIMD floating-point"},
	[20] = {"#VE", "virtualization exception"},
	[21] = {"#CP", "control protection"},
	[28] = {"#HV", "hypervisor injection"},
	[29] = {"#VC", "VMM communication"},
	[30] = {"#SX", "security exception"},
};

const char *trap_mnemonic(unsigned vector)
{
	if (vector < NR_EXCEPTIONS && exceptions[vector].mnemonic)
		return exceptions[vector].mnemonic;
	return "?";
}

const char *trap_name(unsigned vector)
{
	if (vector < NR_EXCEPTIONS && exceptions[vector].name)
		return exceptions[vector].name;
	return "reserved";
}

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
	[14] = page_fault,
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
	if (!trap_from_user(tf) && extable_fixup(tf))
		return;
	trap_report_fatal(tf);
}

void cpu_fault_panic(const char *insn, uint64_t operand, int vector)
{
	panic("unexpected %s (%s, vector %d) on %s 0x%lx", trap_mnemonic(vector),
	      trap_name(vector), vector, insn, operand);
}
