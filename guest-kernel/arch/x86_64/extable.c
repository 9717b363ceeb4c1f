/*
 * The exception table of the _safe accessors (cpu.h): pairs of
 * (instruction address, resume address) collected by the linker between
 * __extable_start and __extable_end.
 */
#include "arch/x86_64/traps.h"

struct extable_entry {
	uint64_t insn;
	uint64_t resume;
};

extern const struct extable_entry __extable_start[], __extable_end[];

/*
 * The accessor's asm declared RSI as its result operand (initialised to 0);
 * writing the vector there is how it learns that the instruction faulted.
 */
bool extable_fixup(struct trap_frame *tf)
{
	const struct extable_entry *e;

	for (e = __extable_start; e < __extable_end; e++) {
		if (e->insn == tf->rip) {
			tf->rip = e->resume;
			tf->rsi = tf->vector;
			return true;
		}
	}
	return false;
}
