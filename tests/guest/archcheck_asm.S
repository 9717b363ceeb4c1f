/*
 * ac_compat_run: run 32-bit code in an LDT code segment, entered and left
 * through sigreturn (the kernel's IRET), as Linux's own sigreturn selftest
 * does.  No far return in user mode: QEMU TCG before 8.x pops LRETQ's stack
 * with supervisor accesses, which SMAP refuses.
 *
 * Register contract (C: void ac_compat_run(void)):
 *   in:   ac_tid (int): our tid
 *   does: saves RSP in ac_compat_saved_rsp, loads DS with SS (compat mode
 *         segments its data accesses through DS), and sends itself SIGUSR1
 *         (tkill).  The SIGUSR1 handler (C) sigreturns into ac_compat_code
 *         with CS = the 32-bit LDT selector, RSP below 4 GiB and EBX = a
 *         never-touched page below 4 GiB.  That code loads from the page (a
 *         page fault the kernel resolves: IRET back into compat mode), puts
 *         %cs in EDX and runs INT3; the SIGTRAP handler (C) sigreturns to
 *         ac_compat_back with CS 64-bit and RSP = ac_compat_saved_rsp.
 *   keeps: RBX RBP R12-R15 (pushed before, popped at ac_compat_back).
 *   clobbers: RAX RCX RDX RSI RDI R8-R11; DS is the null selector again after.
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
	movl	%ss, %eax
	movl	%eax, %ds
	movl	$200, %eax		/* SYS_tkill */
	movl	ac_tid(%rip), %edi
	movl	$10, %esi		/* SIGUSR1 */
	syscall
	ud2				/* the handler did not send us to compat mode */
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
