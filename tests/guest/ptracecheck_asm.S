/*
 * Code the ptrace tracer walks through in its child, with a label on every
 * instruction it checks.  All are void(void) C functions; each keeps the
 * callee-saved registers for its caller.
 */
	.text

/*
 * pt_step_seq: INT3 (the tracer's way in), then MOV $39 (getpid), SYSCALL,
 * MOV RAX -> RDX, NOP, RET; pt_step_N labels the N-th instruction after the
 * INT3.  Clobbers RAX RCX RDX R11.
 */
	.globl	pt_step_seq, pt_step_0, pt_step_1, pt_step_2, pt_step_3, pt_step_4
	.type	pt_step_seq, @function
pt_step_seq:
	int3
pt_step_0:
	movl	$39, %eax
pt_step_1:
	syscall
pt_step_2:
	movq	%rax, %rdx
pt_step_3:
	nop
pt_step_4:
	ret
	.size	pt_step_seq, . - pt_step_seq

/*
 * pt_sys_seq: three getpid SYSCALLs whose results land in pt_sys_out[0..2],
 * then INT3.  Clobbers RAX RCX R11.
 */
	.globl	pt_sys_seq
	.type	pt_sys_seq, @function
pt_sys_seq:
	movl	$39, %eax
	syscall
	movq	%rax, pt_sys_out+0(%rip)
	movl	$39, %eax
	syscall
	movq	%rax, pt_sys_out+8(%rip)
	movl	$39, %eax
	syscall
	movq	%rax, pt_sys_out+16(%rip)
	int3
	ret
	.size	pt_sys_seq, . - pt_sys_seq

/*
 * pt_regs_seq: loads RBX RBP R12-R15 from pt_regs_in[0..5], XMM0 from
 * pt_xmm_in, MXCSR from pt_mxcsr_in; INT3 at pt_regs_stop1 (the tracer reads
 * and rewrites registers there); stores RBX RBP R12-R15 to pt_regs_out[0..5];
 * INT3 at pt_regs_stop2, where the tracer moves RIP to pt_regs_skip_to,
 * skipping the store of 1 to pt_regs_skipped.  Restores the callee-saved
 * registers and MXCSR.  Clobbers RAX, XMM0.
 */
	.globl	pt_regs_seq, pt_regs_stop1, pt_regs_stop2, pt_regs_skip_to
	.type	pt_regs_seq, @function
pt_regs_seq:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp
	stmxcsr	(%rsp)
	movq	pt_regs_in+0(%rip), %rbx
	movq	pt_regs_in+8(%rip), %rbp
	movq	pt_regs_in+16(%rip), %r12
	movq	pt_regs_in+24(%rip), %r13
	movq	pt_regs_in+32(%rip), %r14
	movq	pt_regs_in+40(%rip), %r15
	movdqu	pt_xmm_in(%rip), %xmm0
	ldmxcsr	pt_mxcsr_in(%rip)
	int3
pt_regs_stop1:
	movq	%rbx, pt_regs_out+0(%rip)
	movq	%rbp, pt_regs_out+8(%rip)
	movq	%r12, pt_regs_out+16(%rip)
	movq	%r13, pt_regs_out+24(%rip)
	movq	%r14, pt_regs_out+32(%rip)
	movq	%r15, pt_regs_out+40(%rip)
	int3
pt_regs_stop2:
	movl	$1, pt_regs_skipped(%rip)
pt_regs_skip_to:
	ldmxcsr	(%rsp)
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	pt_regs_seq, . - pt_regs_seq

	.section .note.GNU-stack, "", @progbits
