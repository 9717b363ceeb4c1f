/*
 * ac_compat_run: run 32-bit code in an LDT code segment and come back
 * through a signal.
 *
 * Register contract (C: void ac_compat_run(void)):
 *   in:   ac_compat_cs (u16): a 32-bit LDT code selector with base 0;
 *         ac_compat_stack (u64): a stack top below 4 GiB (compat-mode pushes
 *         use ESP); ac_fresh32 (u32): a never-touched page below 4 GiB
 *   does: saves RSP in ac_compat_saved_rsp, switches to ac_compat_stack and
 *         far-returns (LRETQ) into ac_compat_code, 32-bit code that loads from
 *         the fresh page (a page fault the kernel resolves: IRET back into
 *         compat mode), puts %cs in EDX and runs INT3.  The SIGTRAP handler
 *         (C) puts CS back to 64-bit, RIP to ac_compat_back and RSP to
 *         ac_compat_saved_rsp.
 *   keeps: RBX RBP R12-R15 (pushed before, popped at ac_compat_back).
 *   clobbers: RAX RCX RDX RSI RDI R8-R11; DS is the null selector again after.
 *   (DS = SS while in compat mode, where data accesses go through DS.)
 * ac_compat_code must lie below 4 GiB (this binary is not PIE: 0x400000).
 */
	.text
	.globl	ac_compat_run, ac_compat_back, ac_compat_code, ac_compat_after_int3
	.type	ac_compat_run, @function
ac_compat_run:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, ac_compat_saved_rsp(%rip)
	movl	ac_fresh32(%rip), %ebx
	movq	ac_compat_stack(%rip), %rsp
	/* Compat mode segments its data accesses: DS must be a data selector (our SS). */
	movl	%ss, %eax
	movl	%eax, %ds
	movzwl	ac_compat_cs(%rip), %eax
	pushq	%rax
	leaq	ac_compat_code(%rip), %rax
	pushq	%rax
	lretq
ac_compat_back:
	xorl	%eax, %eax
	movl	%eax, %ds
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	ac_compat_run, . - ac_compat_run

	.code32
ac_compat_code:
	movl	(%ebx), %eax
	movl	%cs, %edx
	int3
ac_compat_after_int3:
	hlt
	.code64

	.section .note.GNU-stack, "", @progbits
