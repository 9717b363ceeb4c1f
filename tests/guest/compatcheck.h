/*
 * compatcheck: the i386 syscall entries of a 64-bit process, as Linux has
 * them (compatcheck.c says what is checked; compatcheck_asm.S runs it).
 */
#ifndef EL_COMPATCHECK_H
#define EL_COMPATCHECK_H

#include <stdint.h>

/* Every general register, RSP and RFLAGS: what a run loads and what it finds after. */
struct cc_regs {
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rsp, rflags;
};

/* How cc_compat_run() enters the kernel from 32-bit code (cc_how). */
enum cc_how { CC_INT80, CC_SYSCALL, CC_SYSENTER };

extern struct cc_regs cc_in, cc_out;
extern uint32_t cc_how;        /* enum cc_how */
extern uint16_t cc_code32_sel; /* the 32-bit code selector cc_compat_run() far-jumps to */
extern uint8_t cc_stack32_top[]; /* ESP in compat mode (below 4 GiB: .bss of a non-PIE binary) */
extern uint64_t cc_saved_rsp;   /* RSP while a run is in the kernel (the 64-bit run: what RSP must be after) */

/* int $0x80 from 64-bit code with cc_in's registers (RAX the number, RFLAGS too); cc_out after. */
void cc_int80_64(void);

/*
 * Far jump to cc_code32_sel with ESP = cc_stack32_top and R8-R15, RFLAGS,
 * EAX-EBP from cc_in; enters the kernel as cc_how says (SYSCALL and SYSENTER
 * through a __kernel_vsyscall-like sequence: push ECX, EDX, EBP; the vdso32
 * landing pad pops them and returns here); then cc_out, back to 64-bit.
 */
void cc_compat_run(void);

#endif
