/*
 * Exception names (the shared table) and cpu_fault_panic() (cpu_fault.h).
 */
#include "arch/x86_64/cpu_fault.h"
#include "entrylab/exceptions.h"
#include "lib/panic.h"

const char *trap_mnemonic(unsigned vector)
{
	const char *m = el_exception_mnemonic(vector);

	return m ? m : "?";
}

const char *trap_name(unsigned vector)
{
	const char *n = el_exception_name(vector);

	return n ? n : "reserved";
}

void cpu_fault_panic(const char *insn, uint64_t operand, int vector)
{
	panic("unexpected %s (%s, vector %d) on %s 0x%lx", trap_mnemonic((unsigned)vector),
	      trap_name((unsigned)vector), vector, insn, operand);
}
