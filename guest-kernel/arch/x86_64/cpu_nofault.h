/*
 * The instructions that cannot fault at CPL 0 (CLI, HLT, PAUSE, PUSHF), for
 * the code below everything else (console, panic) that must not depend on
 * cpu.h's accessors and their panic.  cpu.h includes this.
 */
#ifndef EL_CPU_NOFAULT_H
#define EL_CPU_NOFAULT_H

#include <stdint.h>

static inline void cli(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}

static inline void hlt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

static inline uint64_t read_rflags(void)
{
	uint64_t f;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(f));
	return f;
}

#endif
