/*
 * #DB: DR6 says why (single step BS, breakpoints B0-B3; nothing: INT1).
 * The breakpoints are the user tasks' (hw_breakpoint.c), which decides what
 * a hit means.  From user mode it becomes the SIGTRAP of the user trap path
 * (the vector 1 frame carries the DR6 to report in its error slot, arch
 * polarity, for the signal code; the CPU pushes none for #DB), or nothing.
 * In kernel mode it is one of:
 *   - a user watchpoint hit by the kernel's own access (a uaccess copy):
 *     consumed, no signal, as Linux's ptrace breakpoints exclude the kernel;
 *   - a step or a watchpoint held over by `mov ss`/`pop ss` to the first
 *     instruction of the SYSCALL or INT entry it preceded (Linux's
 *     mov_ss_trap case, CVE-2018-8897), with the user GS (and CR3): the
 *     paranoid entry copes with those; the kernel is never stepped on
 *     purpose, so TF is cleared in the kernel frame, and the entry goes on.
 */
#include "arch/x86_64/debugreg.h"
#include "arch/x86_64/hw_breakpoint.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/x86.h"

static uint64_t dr6_read_clear(void)
{
	uint64_t v, reset = DR6_RESERVED;

	__asm__ __volatile__("mov %%dr6, %0\n\tmov %1, %%dr6" : "=&r"(v) : "r"(reset));
	return v;
}

void debug_trap(struct trap_frame *tf)
{
	uint64_t dr6 = dr6_read_clear() ^ DR6_RESERVED; /* positive polarity */

	if (!trap_from_user(tf)) {
		tf->rflags &= ~RFLAGS_TF; /* whatever DR6 says: the kernel never steps itself */
		hwbp_debug(tf, dr6);
		return;
	}
	dr6 = hwbp_debug(tf, dr6);
	if (dr6 == ~0ull)
		return;
	tf->error = dr6 ^ DR6_RESERVED;
	if (!user_trap_kill(tf))
		trap_report_fatal(tf);
}
