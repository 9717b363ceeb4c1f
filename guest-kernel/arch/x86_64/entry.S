/*
 * Exception entry and return.  Everything here is in .entry.text, the
 * page-aligned area page-table isolation will map into user page tables:
 * code in this file must not touch kernel data before the (future) CR3
 * switch, only the stack the CPU switched to.
 *
 * One 16-byte stub per exception vector, then a common path that builds a
 * struct trap_frame (trapframe.h) and calls trap_dispatch().
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
 * does; that comes with user mode.
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
	jz	2f
	swapgs
2:
	movq	TF_R15(%rsp), %r15
	movq	TF_R14(%rsp), %r14
	movq	TF_R13(%rsp), %r13
	movq	TF_R12(%rsp), %r12
	movq	TF_RBP(%rsp), %rbp
	movq	TF_RBX(%rsp), %rbx
	movq	TF_R11(%rsp), %r11
	movq	TF_R10(%rsp), %r10
	movq	TF_R9(%rsp), %r9
	movq	TF_R8(%rsp), %r8
	movq	TF_RAX(%rsp), %rax
	movq	TF_RCX(%rsp), %rcx
	movq	TF_RDX(%rsp), %rdx
	movq	TF_RSI(%rsp), %rsi
	movq	TF_RDI(%rsp), %rdi
	addq	$TF_RIP, %rsp
	iretq

/* Stub addresses by vector, for idt.c (read at boot only, so not entry data). */
	.section .rodata
	.balign 8
	.globl trap_stubs
trap_stubs:
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad	trap_stub_\vec
	.endr

	.section .note.GNU-stack, "", @progbits
