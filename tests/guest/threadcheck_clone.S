/*
 * tc_raw_clone: the clone system call with a child that runs fn(arg) on its
 * own stack and ends with SYS_exit (the thread alone) and fn's result.
 *
 * Register contract (C: long tc_raw_clone(unsigned long flags, void *stack_top,
 *                    int *ptid, int *ctid, void *tls, int (*fn)(void *), void *arg)):
 *   in:  RDI flags, RSI stack top (16-byte aligned), RDX ptid, RCX ctid,
 *        R8 tls, R9 fn, 8(%rsp) arg
 *   out: the parent gets RAX = the child's tid or -errno; the child never
 *        returns here.
 *   The kernel's order is flags, newsp, parent_tid, child_tid, tls in
 *   RDI RSI RDX R10 R8: ctid moves from RCX to R10.  fn and arg ride on the
 *   child's stack, the only memory the child is sure to have to itself.
 */
	.text
	.globl	tc_raw_clone
	.type	tc_raw_clone, @function
tc_raw_clone:
	movq	8(%rsp), %rax
	subq	$16, %rsi
	movq	%r9, 0(%rsi)
	movq	%rax, 8(%rsi)
	movq	%rcx, %r10
	movl	$56, %eax		/* SYS_clone */
	syscall
	testq	%rax, %rax
	jnz	1f
	/* The child: RSP = stack top - 16. */
	popq	%rax
	popq	%rdi
	xorl	%ebp, %ebp
	call	*%rax
	movl	%eax, %edi
	movl	$60, %eax		/* SYS_exit */
	syscall
	hlt
1:	ret
	.size	tc_raw_clone, . - tc_raw_clone

	.section .note.GNU-stack, "", @progbits
