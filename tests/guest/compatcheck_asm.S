/*
 * compatcheck's register runs (compatcheck.h).  No far return or far call
 * (QEMU TCG before 8.x pops LRETQ's stack with supervisor accesses, which
 * SMAP refuses: archcheck_asm.S): far JMPs both ways, through memory from
 * 64-bit code and with an immediate from 32-bit code.
 *
 * Register contract (C: void f(void)) of both:
 *   in:   cc_in (every register's value; RSP only for the 64-bit run, where
 *         it is not loaded: the run keeps its own), cc_how, cc_code32_sel;
 *   out:  cc_out: every register as the kernel gave it back (in compat mode
 *         the low halves of RAX-RBP and ESP; R8-R15 whole, read after the
 *         return to 64-bit code), RFLAGS;
 *   keeps: RBX RBP R12-R15, RSP, DS and ES; DF clear on return.
 */
#define O_RAX 0
#define O_RBX 8
#define O_RCX 16
#define O_RDX 24
#define O_RSI 32
#define O_RDI 40
#define O_RBP 48
#define O_R8 56
#define O_R9 64
#define O_R10 72
#define O_R11 80
#define O_R12 88
#define O_R13 96
#define O_R14 104
#define O_R15 112
#define O_RSP 120
#define O_RFLAGS 128
#define USER_CS 0x33

	.data
	.balign 8
	.globl cc_in, cc_out, cc_how, cc_code32_sel
cc_in:	.fill 17, 8, 0
cc_out:	.fill 17, 8, 0
	.globl cc_saved_rsp
cc_saved_rsp:	.quad 0
cc_saved_ds:	.long 0
cc_saved_es:	.long 0
cc_how:	.long 0
/* m16:32 far pointer for ljmpl */
cc_far32:
	.long	cc_code32
cc_code32_sel:
	.word	0x23
	.balign 4
cc_vec32:
	.long	.Lint80, .Lsyscall, .Lsysenter

	.bss
	.balign 16
	.globl cc_stack32_top
	.skip 16384
cc_stack32_top:

	.text
.macro SAVE_CALLEE
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, cc_saved_rsp(%rip)
.endm
.macro RESTORE_CALLEE
	movq	cc_saved_rsp(%rip), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	cld
	ret
.endm

	.globl cc_int80_64
	.type cc_int80_64, @function
cc_int80_64:
	SAVE_CALLEE
	pushq	cc_in+O_RFLAGS(%rip)
	popfq
	movq	cc_in+O_RBX(%rip), %rbx
	movq	cc_in+O_RCX(%rip), %rcx
	movq	cc_in+O_RDX(%rip), %rdx
	movq	cc_in+O_RSI(%rip), %rsi
	movq	cc_in+O_RDI(%rip), %rdi
	movq	cc_in+O_RBP(%rip), %rbp
	movq	cc_in+O_R8(%rip), %r8
	movq	cc_in+O_R9(%rip), %r9
	movq	cc_in+O_R10(%rip), %r10
	movq	cc_in+O_R11(%rip), %r11
	movq	cc_in+O_R12(%rip), %r12
	movq	cc_in+O_R13(%rip), %r13
	movq	cc_in+O_R14(%rip), %r14
	movq	cc_in+O_R15(%rip), %r15
	movq	cc_in+O_RAX(%rip), %rax
	int	$0x80
	movq	%rax, cc_out+O_RAX(%rip)
	movq	%rbx, cc_out+O_RBX(%rip)
	movq	%rcx, cc_out+O_RCX(%rip)
	movq	%rdx, cc_out+O_RDX(%rip)
	movq	%rsi, cc_out+O_RSI(%rip)
	movq	%rdi, cc_out+O_RDI(%rip)
	movq	%rbp, cc_out+O_RBP(%rip)
	movq	%r8, cc_out+O_R8(%rip)
	movq	%r9, cc_out+O_R9(%rip)
	movq	%r10, cc_out+O_R10(%rip)
	movq	%r11, cc_out+O_R11(%rip)
	movq	%r12, cc_out+O_R12(%rip)
	movq	%r13, cc_out+O_R13(%rip)
	movq	%r14, cc_out+O_R14(%rip)
	movq	%r15, cc_out+O_R15(%rip)
	movq	%rsp, cc_out+O_RSP(%rip)
	pushfq
	popq	cc_out+O_RFLAGS(%rip)
	RESTORE_CALLEE
	.size cc_int80_64, . - cc_int80_64

	.globl cc_compat_run
	.type cc_compat_run, @function
cc_compat_run:
	SAVE_CALLEE
	movl	%ds, %eax
	movl	%eax, cc_saved_ds(%rip)
	movl	%es, %eax
	movl	%eax, cc_saved_es(%rip)
	movl	%ss, %eax		/* compat mode segments data through DS and ES */
	movl	%eax, %ds
	movl	%eax, %es
	movq	cc_in+O_R8(%rip), %r8
	movq	cc_in+O_R9(%rip), %r9
	movq	cc_in+O_R10(%rip), %r10
	movq	cc_in+O_R11(%rip), %r11
	movq	cc_in+O_R12(%rip), %r12
	movq	cc_in+O_R13(%rip), %r13
	movq	cc_in+O_R14(%rip), %r14
	movq	cc_in+O_R15(%rip), %r15
	movl	$cc_stack32_top, %esp
	ljmpl	*cc_far32(%rip)

	.code32
cc_code32:
	pushl	cc_in+O_RFLAGS
	popfl
	movl	cc_how, %eax
	movl	cc_vec32(, %eax, 4), %eax
	movl	%eax, cc_out+O_RAX	/* scratch: the jump target */
	movl	cc_in+O_RBX, %ebx
	movl	cc_in+O_RCX, %ecx
	movl	cc_in+O_RDX, %edx
	movl	cc_in+O_RSI, %esi
	movl	cc_in+O_RDI, %edi
	movl	cc_in+O_RBP, %ebp
	movl	cc_in+O_RAX, %eax
	jmp	*cc_out+O_RAX
.Lint80:
	int	$0x80
	jmp	.Lstore
.Lsyscall:
	call	.Lsyscall_seq
	jmp	.Lstore
.Lsysenter:
	call	.Lsysenter_seq
.Lstore:
	movl	%eax, cc_out+O_RAX
	movl	%ebx, cc_out+O_RBX
	movl	%ecx, cc_out+O_RCX
	movl	%edx, cc_out+O_RDX
	movl	%esi, cc_out+O_RSI
	movl	%edi, cc_out+O_RDI
	movl	%ebp, cc_out+O_RBP
	movl	%esp, cc_out+O_RSP
	pushfl
	popl	cc_out+O_RFLAGS
	ljmp	$USER_CS, $cc_back64

/* __kernel_vsyscall's two fast sequences (Linux's vdso32/system_call.S does the same). */
.Lsyscall_seq:
	pushl	%ecx
	pushl	%edx
	pushl	%ebp
	movl	%ecx, %ebp
	syscall
	ud2
.Lsysenter_seq:
	pushl	%ecx
	pushl	%edx
	pushl	%ebp
	movl	%esp, %ebp
	sysenter
	ud2
	.code64

cc_back64:
	movq	%r8, cc_out+O_R8(%rip)
	movq	%r9, cc_out+O_R9(%rip)
	movq	%r10, cc_out+O_R10(%rip)
	movq	%r11, cc_out+O_R11(%rip)
	movq	%r12, cc_out+O_R12(%rip)
	movq	%r13, cc_out+O_R13(%rip)
	movq	%r14, cc_out+O_R14(%rip)
	movq	%r15, cc_out+O_R15(%rip)
	movl	cc_saved_ds(%rip), %eax
	movl	%eax, %ds
	movl	cc_saved_es(%rip), %eax
	movl	%eax, %es
	RESTORE_CALLEE
	.size cc_compat_run, . - cc_compat_run

	.section .note.GNU-stack, "", @progbits
