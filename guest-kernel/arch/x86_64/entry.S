/*
 * Exception entry and return.  Everything here is in .entry.text, the
 * page-aligned area page-table isolation will map into user page tables:
 * code in this file must not touch kernel data before the (future) CR3
 * switch, only the stack the CPU switched to.
 *
 * One 16-byte stub per exception vector, then a common path that builds a
 * struct trap_frame (trapframe.h) and calls trap_dispatch().  The return to
 * user mode (restore_user_regs_and_iret) is shared with the SYSCALL entry's
 * IRET exit and with the first entry of a process (enter_user).
 */
#include "arch/x86_64/trapframe.h"

	.section .entry.text, "ax"

/*
 * trap_stub_N
 * In:  CPU exception frame on the stack (SS, RSP, RFLAGS, CS, RIP and, for
 *      vectors in X86_ERROR_CODE_VECTORS, the error code); IF = 0 (interrupt gate).
 * Out: error code (0 where the CPU pushes none) and vector pushed; jumps to
 *      trap_common.  Clobbers nothing.
 */
.macro TRAP_STUB vec
	.p2align 4
trap_stub_\vec:
	.if ((1 << \vec) & X86_ERROR_CODE_VECTORS) == 0
	pushq	$0
	.endif
	pushq	$\vec
	jmp	trap_common
.endm

	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	TRAP_STUB \vec
	.endr

/*
 * trap_common
 * In:  RSP -> vector, error code, hardware frame (RSP 16-byte aligned + 8);
 *      GS base is the interrupted context's.
 * Out: every general register restored from the frame (trap_dispatch may have
 *      changed RIP or registers, e.g. an exception-table fixup), vector and
 *      error code dropped, IRETQ.
 * Calls trap_dispatch(RDI = struct trap_frame *) on a 16-byte aligned stack.
 * Entries from user mode (CS.RPL = 3) SWAPGS in and out so kernel code always
 * runs with the kernel GS base.  NMI/#MC/#DB/#DF arriving between a SWAPGS and
 * the following IRET/SYSRET need the MSR-based check Linux's paranoid entry
 * does (issue 4: with PTI they also need the CR3 check).
 */
	.p2align 4
trap_common:
	subq	$TF_VECTOR, %rsp
	movq	%rdi, TF_RDI(%rsp)
	movq	%rsi, TF_RSI(%rsp)
	movq	%rdx, TF_RDX(%rsp)
	movq	%rcx, TF_RCX(%rsp)
	movq	%rax, TF_RAX(%rsp)
	movq	%r8, TF_R8(%rsp)
	movq	%r9, TF_R9(%rsp)
	movq	%r10, TF_R10(%rsp)
	movq	%r11, TF_R11(%rsp)
	movq	%rbx, TF_RBX(%rsp)
	movq	%rbp, TF_RBP(%rsp)
	movq	%r12, TF_R12(%rsp)
	movq	%r13, TF_R13(%rsp)
	movq	%r14, TF_R14(%rsp)
	movq	%r15, TF_R15(%rsp)
	cld
	testb	$3, TF_CS(%rsp)
	jz	1f
	swapgs
1:
	movq	%rsp, %rdi
	call	trap_dispatch
	testb	$3, TF_CS(%rsp)
	jnz	return_to_user_iret
	/* Back to kernel mode: nothing else to switch. */
	jmp	restore_regs_and_iret

/*
 * return_to_user_iret
 * In:  RSP -> struct trap_frame of a user context (CS.RPL = 3), kernel GS.
 * Out: user GS (SWAPGS), every register from the frame, IRETQ to user mode.
 * Issue 4's variants (PTI CR3 switch, SYSRET from faults, trampoline IRET
 * frame) hook in here, before the SWAPGS.
 */
	.globl return_to_user_iret
return_to_user_iret:
	swapgs
restore_regs_and_iret:
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$(TF_RIP - TF_VECTOR), %rsp
	iretq

/*
 * enter_user
 * In:  RDI = struct trap_frame for the new user context, at the top of the
 *      kernel stack the process's entries will use; kernel GS; IF = 0.
 * Out: does not return: RSP := RDI, then return_to_user_iret.
 */
	.globl enter_user
enter_user:
	movq	%rdi, %rsp
	jmp	return_to_user_iret

/* Stub addresses by vector, for idt.c (read at boot only, so not entry data). */
	.section .rodata
	.balign 8
	.globl trap_stubs
trap_stubs:
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad	trap_stub_\vec
	.endr

	.section .note.GNU-stack, "", @progbits
