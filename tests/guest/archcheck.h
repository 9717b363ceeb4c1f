/*
 * archcheck: the x86-64 specifics Linux's selftests lean on, checked from a
 * static musl program: modify_ldt with LDT selectors in use (data in %gs,
 * code in %cs) across system calls, faults, signals and IRET; arch_prctl and
 * FSGSBASE; iopl/ioperm; mremap (grow, shrink, move, and moving the vDSO);
 * process_vm_readv on ourselves; /proc/self/maps and smaps; XSAVE and AVX
 * state across a switch to another process.
 */
#ifndef EL_ARCHCHECK_H
#define EL_ARCHCHECK_H

#include <stdint.h>

#include "check.h"

/* A fault site as in sigcheck: the instruction's address and the one after it. */
extern volatile uintptr_t ac_site_at, ac_site_resume;
extern volatile int ac_faults, ac_fault_code;
/* Installs a SIGSEGV handler that counts, records si_code and skips to ac_site_resume. */
void ac_catch_segv(void);
void ac_default_segv(void);

#define AC_SITE(insn)                                                                        \
	"leaq	1f(%%rip), %%r11\n\t"                                                        \
	"movq	%%r11, %[site_at]\n\t"                                                       \
	"leaq	2f(%%rip), %%r11\n\t"                                                        \
	"movq	%%r11, %[site_resume]\n"                                                     \
	"1:\t" insn "\n"                                                                     \
	"2:\n\t"
#define AC_SITE_OPS [site_at] "=m"(ac_site_at), [site_resume] "=m"(ac_site_resume)

/* Every process here on CPU 0 (0 or -errno). */
int ac_pin_cpu0(void);

void ac_ldt(void);
void ac_prctl(void);
void ac_io(void);
void ac_mremap(void);
void ac_proc(void);
void ac_xsave(void);
void ac_vdso_move(void);

#endif
