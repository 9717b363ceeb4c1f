/*
 * Code hwbpcheck's tracer arms breakpoints on in its child, with a label on
 * every address it checks.  All are C functions (System V ABI); each keeps
 * the callee-saved registers for its caller.
 */
	.data
	.balign 8
	.globl	hw_word, hw_ss_sel
hw_word:
	.quad	0
/* The SS selector the MOV SS sequences load (hwbpcheck.c stores the current one). */
hw_ss_sel:
	.word	0
	.text

/* void hw_write_word(uint64_t v): hw_word := v; hw_write_after labels the RET. */
	.globl	hw_write_word, hw_write_after
	.type	hw_write_word, @function
hw_write_word:
	movq	%rdi, hw_word(%rip)
hw_write_after:
	ret
	.size	hw_write_word, . - hw_write_word

/* void hw_exec_target(void): the execute breakpoint's target, its first instruction. */
	.globl	hw_exec_target
	.type	hw_exec_target, @function
hw_exec_target:
	nop
	ret
	.size	hw_exec_target, . - hw_exec_target

/*
 * The MOV SS sequences: a load of SS from hw_ss_sel (the watched word), so
 * the data breakpoint's #DB is held back by the MOV SS shadow and delivered
 * after the next instruction: the first instruction of the kernel entry it
 * enters (CVE-2018-8897).  hw_movss_*_at label that next instruction.
 *   long hw_movss_syscall(void)   getpid (39) by SYSCALL: its result
 *   void hw_movss_int3(void)      INT3 (#BP, DPL 3: SIGTRAP)
 *   long hw_movss_int80(void)     INT $0x80 with EAX 20 (the i386 getpid):
 *                                 its result, or #GP where no gate exists
 *   void hw_movss_intn(void)      INT $0x41, a vector no kernel gives user
 *                                 mode: #GP (SIGSEGV)
 *   long hw_int80(void)           INT $0x80 with EAX 20, without MOV SS
 * A #GP's SIGSEGV handler resumes at hw_movss_resume (RAX = -1).
 * Clobber RAX RCX R11 (and, INT $0x80, nothing else: the i386 ABI).
 */
	.globl	hw_movss_syscall, hw_movss_int3, hw_movss_int80, hw_movss_intn, hw_int80
	.globl	hw_movss_syscall_at, hw_movss_int3_at, hw_movss_int80_at, hw_movss_intn_at
	.globl	hw_int80_at, hw_movss_resume
	.type	hw_movss_syscall, @function
hw_movss_syscall:
	movl	$39, %eax
	movw	hw_ss_sel(%rip), %ss
hw_movss_syscall_at:
	syscall
	ret
	.size	hw_movss_syscall, . - hw_movss_syscall

	.type	hw_movss_int3, @function
hw_movss_int3:
	movw	hw_ss_sel(%rip), %ss
hw_movss_int3_at:
	int3
	ret
	.size	hw_movss_int3, . - hw_movss_int3

	.type	hw_movss_int80, @function
hw_movss_int80:
	pushq	%rbx
	movl	$20, %eax
	movw	hw_ss_sel(%rip), %ss
hw_movss_int80_at:
	int	$0x80
	popq	%rbx
	ret
	.size	hw_movss_int80, . - hw_movss_int80

	.type	hw_movss_intn, @function
hw_movss_intn:
	pushq	%rbx
	xorl	%eax, %eax
	movw	hw_ss_sel(%rip), %ss
hw_movss_intn_at:
	int	$0x41
	popq	%rbx
	ret
	.size	hw_movss_intn, . - hw_movss_intn

	.type	hw_int80, @function
hw_int80:
	pushq	%rbx
	movl	$20, %eax
hw_int80_at:
	int	$0x80
	popq	%rbx
	ret
	.size	hw_int80, . - hw_int80

/* The SIGSEGV handler's landing place for the sequences above: RBX on the stack. */
	.type	hw_movss_resume, @function
hw_movss_resume:
	movq	$-1, %rax
	popq	%rbx
	ret
	.size	hw_movss_resume, . - hw_movss_resume

	.section .note.GNU-stack, "", @progbits
