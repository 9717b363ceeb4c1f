/*
 * CR0, CR4 and EFER set-up from CPUID and the command line.
 */
#ifndef EL_CPU_SETUP_H
#define EL_CPU_SETUP_H

#include "cmdline.h"
#include "kernel.h"

struct cpu_setup_state {
	uint64_t cr4_allowed;  /* CR4 bits CPUID and the command line allow */
	uint64_t cr4_refused;  /* allowed, but the CPU raised an exception on setting them */
	uint64_t efer_allowed; /* EFER bits the kernel sets when CPUID allows */
	uint64_t efer_refused;
};

extern struct cpu_setup_state cpu_state;

/* Needs cpu_identify().  Enables only what CPUID offers and the command line allows. */
void cpu_setup(const struct el_cmdline *cl);

/* The bit names of CR0, CR4 and EFER, for the boot report. */
void cpu_print_cr0(uint64_t v);
void cpu_print_cr4(uint64_t v);
void cpu_print_efer(uint64_t v);

#endif
