/*
 * sr_trigger: tkill(sr_tid, SIGUSR1) from one known SYSCALL, then record
 * every register the kernel's sigreturn handed back.
 *
 * Register contract (a normal C function, void sr_trigger(void)):
 *   in:   sr_tid (int, memory): the thread to signal (our own)
 *   out:  sr_out[0..14] = RAX RBX RCX RDX RSI RDI RBP R8..R15 as found right
 *         after the SYSCALL (the RFLAGS PUSHFQ at sr_after_syscall saw, then
 *         RSP, in sr_out[15] and sr_out[16])
 *   keeps: RBX RBP R12-R15 and RSP, and RFLAGS as they were at the call:
 *         a handler may edit any of them (and DF, AC) in the frame, so they are
 *         saved in memory and reloaded from there, not from registers.
 *   sr_after_syscall: the instruction after the SYSCALL (PUSHFQ, 1 byte);
 *   sr_second:        the one after it: where TF set by sigreturn must trap.
 */
	.text
	.globl	sr_trigger, sr_after_syscall, sr_second
	.type	sr_trigger, @function
sr_trigger:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	pushfq
	movq	%rsp, sr_rsp_saved(%rip)
	movl	$200, %eax		/* SYS_tkill */
	movl	sr_tid(%rip), %edi
	movl	$10, %esi		/* SIGUSR1 */
	syscall
sr_after_syscall:
	pushfq
sr_second:
	popq	sr_out+120(%rip)
	movq	%rax, sr_out+0(%rip)
	movq	%rbx, sr_out+8(%rip)
	movq	%rcx, sr_out+16(%rip)
	movq	%rdx, sr_out+24(%rip)
	movq	%rsi, sr_out+32(%rip)
	movq	%rdi, sr_out+40(%rip)
	movq	%rbp, sr_out+48(%rip)
	movq	%r8, sr_out+56(%rip)
	movq	%r9, sr_out+64(%rip)
	movq	%r10, sr_out+72(%rip)
	movq	%r11, sr_out+80(%rip)
	movq	%r12, sr_out+88(%rip)
	movq	%r13, sr_out+96(%rip)
	movq	%r14, sr_out+104(%rip)
	movq	%r15, sr_out+112(%rip)
	movq	%rsp, sr_out+128(%rip)
	movq	sr_rsp_saved(%rip), %rsp
	popfq
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.size	sr_trigger, . - sr_trigger


/*
 * sr_tf_syscall (void): sets TF itself (POPF), then NOP, MOV $39 (getpid),
 * SYSCALL, NOP, NOP, and clears TF again (PUSHF/AND/POPF).  Every
 * instruction is labelled sr_tfs_N so the SIGTRAP handler's RIPs can be
 * named.  Clobbers RAX, RCX, R11 (the SYSCALL's), nothing else.
 */
	.text
	.globl	sr_tf_syscall, sr_tfs_0, sr_tfs_1, sr_tfs_2, sr_tfs_3, sr_tfs_4, sr_tfs_5
	.globl	sr_tfs_6, sr_tfs_7, sr_tfs_8
	.type	sr_tf_syscall, @function
sr_tf_syscall:
	pushfq
	orq	$0x100, (%rsp)
	popfq
sr_tfs_0:
	nop
sr_tfs_1:
	movl	$39, %eax
sr_tfs_2:
	syscall
sr_tfs_3:
	nop
sr_tfs_4:
	nop
sr_tfs_5:
	pushfq
sr_tfs_6:
	andq	$~0x100, (%rsp)
sr_tfs_7:
	popfq
sr_tfs_8:
	ret
	.size	sr_tf_syscall, . - sr_tf_syscall

/*
 * sr_tf_fault (RDI = a never-touched page): the same with a load from the
 * page (a page fault the kernel resolves) in place of the SYSCALL.
 * Clobbers RAX.
 */
	.globl	sr_tf_fault, sr_tff_0, sr_tff_1, sr_tff_2, sr_tff_3, sr_tff_4, sr_tff_5, sr_tff_6
	.type	sr_tf_fault, @function
sr_tf_fault:
	pushfq
	orq	$0x100, (%rsp)
	popfq
sr_tff_0:
	nop
sr_tff_1:
	movq	(%rdi), %rax
sr_tff_2:
	nop
sr_tff_3:
	pushfq
sr_tff_4:
	andq	$~0x100, (%rsp)
sr_tff_5:
	popfq
sr_tff_6:
	ret
	.size	sr_tf_fault, . - sr_tf_fault

	.bss
	.align	8
sr_rsp_saved:
	.quad	0

	.section .note.GNU-stack, "", @progbits
