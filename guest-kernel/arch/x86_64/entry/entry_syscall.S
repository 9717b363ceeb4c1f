/*
 * SYSCALL entry and SYSRET exit (64-bit, MSR_LSTAR), in .entry.text with the
 * exception entry.  Kept short on purpose: `entrylab trace` lists every
 * instruction between the region markers.  Two copies of one macro, chosen
 * at boot through LSTAR (syscall_init.c), so neither pays for the other's
 * variant: entry_SYSCALL_64 (no PTI) and entry_SYSCALL_64_pti.
 *
 * Register contract (Linux x86-64 syscall ABI):
 *   In:  RAX = number; RDI, RSI, RDX, R10, R8, R9 = arguments 1-6;
 *        RCX = user RIP after the SYSCALL, R11 = user RFLAGS; RSP = user stack;
 *        CS/SS = KERNEL_CS/KERNEL_DS (STAR); RFLAGS &= ~SFMASK, so IF, TF, DF,
 *        AC, NT and the arithmetic flags are clear; GS base = the user's;
 *        CR3 = the user PGD under PTI.
 *   Out: RAX = result or -errno.  RCX and R11 are clobbered as on Linux (on
 *        the SYSRET path they hold RIP and RFLAGS); every other register,
 *        RFLAGS and RSP are the user's.
 * The frame is struct trap_frame (trapframe.h): vector = TF_VECTOR_SYSCALL,
 * error = the number as passed (orig_ax).  syscall_dispatch() returns
 * non-zero when SYSRET may return (Linux's conditions, sys/syscall.c),
 * otherwise the exit is the IRET of the exception path.
 *
 * PTI: on entry the user RSP is parked in percpu.user_rsp and RSP is the
 * scratch for the switch to the kernel CR3 (Linux does the same with
 * TSS.sp2); on exit the user RSP goes back to percpu.user_rsp, RSP is the
 * scratch for the user CR3, and no stack is touched after the switch, so
 * no hop to the entry stack is needed.
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/segment.h"
#include "sys/errno.h"

/* Pushes src and checks at assembly time that it lands at offset `off` of the frame. */
.macro PUSH_AT src, off
	.set .Lslot, .Lslot - 8
	.if .Lslot != \off
	.error "SYSCALL frame push order disagrees with trapframe.h"
	.endif
	pushq	\src
.endm

/*
 * SYSCALL_ENTRY entry, sysret, pti
 * entry:  the LSTAR target.  In and Out: the contract above.  Builds the
 *         frame on the task stack (percpu.top_of_stack), calls
 *         syscall_dispatch(RDI = the frame); SYSRET through `sysret` when
 *         it returns non-zero, else return_to_user_iret (entry.S).
 * sysret: SYSRET to user mode.  In: RSP -> struct trap_frame on the task
 *         stack whose RCX/R11 are the RIP/RFLAGS SYSRET loads and whose
 *         CS/SS are USER_CS/USER_DS (checked in C: syscall_dispatch() or
 *         exit_sysret_prepare()); RCX canonical (see "User RIPs and the
 *         two ways back" in entry.S); kernel GS and CR3; IF = 0.
 *         Out: every register from the frame, RSP = the frame's RSP, user
 *         GS (and CR3), SYSRETQ.  Under PTI RSP is the CR3 scratch, parked
 *         in percpu.user_rsp.
 */
.macro SYSCALL_ENTRY entry, sysret, pti
	.p2align 6
	.globl \entry
\entry:
	swapgs
	movq	%rsp, %gs:PERCPU_USER_RSP
	.if \pti
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rsp
	.endif
	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	.set .Lslot, TF_SIZE
	PUSH_AT	$USER_DS, TF_SS
	PUSH_AT	%gs:PERCPU_USER_RSP, TF_RSP
	PUSH_AT	%r11, TF_RFLAGS
	PUSH_AT	$USER_CS, TF_CS
	PUSH_AT	%rcx, TF_RIP
	PUSH_AT	%rax, TF_ERROR
	PUSH_AT	$TF_VECTOR_SYSCALL, TF_VECTOR
	PUSH_AT	%rdi, TF_RDI
	PUSH_AT	%rsi, TF_RSI
	PUSH_AT	%rdx, TF_RDX
	PUSH_AT	%rcx, TF_RCX
	PUSH_AT	%rax, TF_RAX
	PUSH_AT	%r8, TF_R8
	PUSH_AT	%r9, TF_R9
	PUSH_AT	%r10, TF_R10
	PUSH_AT	%r11, TF_R11
	PUSH_AT	%rbx, TF_RBX
	PUSH_AT	%rbp, TF_RBP
	PUSH_AT	%r12, TF_R12
	PUSH_AT	%r13, TF_R13
	PUSH_AT	%r14, TF_R14
	PUSH_AT	%r15, TF_R15
	incq	%gs:PERCPU_NR_SYSCALLS
	movq	%rsp, %rdi
	.if \pti
	BELOW_FRAME_PAGE	/* the frame page is user-mapped: C runs below it (frame_page.h) */
	.endif
	call	syscall_dispatch
	.if \pti
	BACK_TO_FRAME
	.endif
	testl	%eax, %eax
	jz	return_to_user_iret
	.globl \sysret
\sysret:
	POP_REGS
	movq	(TF_RSP - TF_VECTOR)(%rsp), %rsp
	.if \pti
	movq	%rsp, %gs:PERCPU_USER_RSP
	SWITCH_TO_USER_CR3 scratch_reg=%rsp
	movq	%gs:PERCPU_USER_RSP, %rsp
	.endif
	swapgs
	sysretq
.endm

	.section .entry.text, "ax"
	SYSCALL_ENTRY entry_SYSCALL_64, sysret_to_user, 0
	SYSCALL_ENTRY entry_SYSCALL_64_pti, sysret_to_user_pti, 1

/*
 * entry_SYSCALL_compat (MSR_CSTAR): SYSCALL from 32-bit code (AMD).  There
 * is no 32-bit ABI: -ENOSYS straight back, touching nothing else, as Linux
 * does without IA32 emulation (no GS, stack or CR3 is needed for that).
 * In:  ECX = the return EIP, R11 = EFLAGS (as SYSCALL left them).
 * Out: EAX = -ENOSYS, everything else unchanged; SYSRETL to USER32_CS.
 */
	.p2align 4
	.globl entry_SYSCALL_compat
entry_SYSCALL_compat:
	movl	$-ENOSYS, %eax
	sysretl

	.section .note.GNU-stack, "", @progbits
