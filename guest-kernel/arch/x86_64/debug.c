/*
 * #DB: DR6 says why (single step BS, breakpoints B0-B3).  From user mode
 * it becomes the SIGTRAP of the user trap path (the vector 1 frame carries
 * DR6 in its error slot for the signal code; the CPU pushes none for #DB).
 * In kernel mode it can only be a step that leaked into the kernel: a
 * `mov ss`/`pop ss` with TF right before SYSCALL or INT delivers the trap
 * on the entry's first instruction (Linux's mov_ss_trap case).  The kernel
 * is never stepped on purpose: the trap is dropped, TF cleared in the
 * kernel frame, and the entry goes on.
 */
#include "arch/x86_64/traps.h"
#include "arch/x86_64/x86.h"

#define DR6_RESET 0xffff0ff0ull /* DR6 with no condition bit set */

static uint64_t dr6_read_clear(void)
{
	uint64_t v, reset = DR6_RESET;

	__asm__ __volatile__("mov %%dr6, %0\n\tmov %1, %%dr6" : "=&r"(v) : "r"(reset));
	return v;
}

void debug_trap(struct trap_frame *tf)
{
	uint64_t dr6 = dr6_read_clear();

	if (!trap_from_user(tf)) {
		tf->rflags &= ~RFLAGS_TF;
		return;
	}
	tf->error = dr6;
	if (!user_trap_kill(tf))
		trap_report_fatal(tf);
}
