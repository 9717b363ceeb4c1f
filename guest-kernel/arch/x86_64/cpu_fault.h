/*
 * Exception names and the panic of the privileged accessors (cpu.h): a
 * leaf, depending on nothing but panic() and the shared vector table
 * (include/entrylab/exceptions.def), so that cpu.h's inline accessors do
 * not pull in the exception dispatcher.
 */
#ifndef EL_CPU_FAULT_H
#define EL_CPU_FAULT_H

#include "kernel.h"

/* "#GP" and "general protection" for vector 13; "?" / "reserved" where the table has none. */
const char *trap_mnemonic(unsigned vector);
const char *trap_name(unsigned vector);

/* An accessor without _safe faulted: panics naming the instruction, its operand and the vector. */
__noreturn void cpu_fault_panic(const char *insn, uint64_t operand, int vector);

#endif
