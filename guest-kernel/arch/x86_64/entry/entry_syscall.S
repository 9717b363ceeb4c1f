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
 *
 * The frame is struct trap_frame (trapframe.h) at the top of the task stack
 * (percpu.top_of_stack), where task_user_frame() finds it: vector =
 * TF_VECTOR_SYSCALL, error = the number as passed (orig_ax).  The fast path
 * fills only part of it and keeps RBX RBP R12-R15 in their registers; the
 * slow paths complete it (syscall_complete_frame).  Which is which, and
 * why TASK_WORK_FRAME means "complete": sys/syscall.c.
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
#include "arch/x86_64/x86.h"
#include "proc/task_asm.h"
#include "sys/errno.h"
#include "sys/syscall.h"

/*
 * SYSRET_TAIL pti: the last steps of both SYSRET exits.
 * In:  RSP = the user RSP, RCX = RIP, R11 = RFLAGS, every other register
 *      the user's; kernel GS and CR3.
 * Out: user CR3 (pti=1; RSP is the scratch, parked in percpu.user_rsp),
 *      user GS, SYSRETQ.
 */
.macro SYSRET_TAIL pti
	.if \pti
	movq	%rsp, %gs:PERCPU_USER_RSP
	SWITCH_TO_USER_CR3 scratch_reg=%rsp
	movq	%gs:PERCPU_USER_RSP, %rsp
	.endif
	swapgs
	sysretq
.endm

/*
 * SYSCALL_ENTRY entry, sysret, pti
 * entry:  the LSTAR target.  In and Out: the contract above.
 *         Fast path: stores RDI RSI RDX R8 R9 R10, RIP, RFLAGS, RSP and
 *         orig RAX in the frame; with current->work == 0, TF and RF clear
 *         in R11 and EAX < NR_SYSCALLS calls syscall_table[EAX] with the
 *         arguments in RDI RSI RDX RCX(= R10) R8 R9 and RBX RBP R12-R15
 *         still the user's (callee-saved: the handler keeps them); if
 *         current->work is still 0, reloads the six argument registers and
 *         SYSRETs with RCX = RIP, R11 = RFLAGS as SYSCALL left them.
 *         Otherwise \entry\()_slow_entry or _slow_exit (below).
 * sysret: SYSRET to user mode from a complete frame (the slow paths, and
 *         exit_to_user in entry.S).  In: RSP -> struct trap_frame on the
 *         task stack whose RCX/R11 are the RIP/RFLAGS SYSRET loads and whose
 *         CS/SS are USER_CS/USER_DS (checked in C: syscall_exit_slow() or
 *         exit_sysret_prepare()); RCX canonical (see "User RIPs and the
 *         two ways back" in entry.S); kernel GS and CR3; IF = 0.
 *         Out: every register from the frame, RSP = the frame's RSP, user
 *         GS (and CR3), SYSRETQ.  Under PTI RSP is the CR3 scratch, parked
 *         in percpu.user_rsp.
 */
.macro SYSCALL_ENTRY entry, sysret, pti
	/* Under PTI the C code runs below the user-mapped frame page (frame_page.h):
	   RSP is the C stack top, the frame is .Lfo bytes above it. */
	.if \pti
	.set .Lfo, FRAME_PAGE_GAP
	.else
	.set .Lfo, 0
	.endif
	.p2align 6
	.globl \entry
\entry:
	swapgs
	movq	%rsp, %gs:PERCPU_USER_RSP
	.if \pti
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rsp
	.endif
	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	subq	$(TF_SIZE + .Lfo), %rsp
	movq	%rdi, .Lfo+TF_RDI(%rsp)
	movq	%rsi, .Lfo+TF_RSI(%rsp)
	movq	%rdx, .Lfo+TF_RDX(%rsp)
	movq	%r8, .Lfo+TF_R8(%rsp)
	movq	%r9, .Lfo+TF_R9(%rsp)
	movq	%r10, .Lfo+TF_R10(%rsp)
	movq	%rcx, .Lfo+TF_RIP(%rsp)
	movq	%r11, .Lfo+TF_RFLAGS(%rsp)
	movq	%rax, .Lfo+TF_ERROR(%rsp)
	movq	%gs:PERCPU_USER_RSP, %rcx
	movq	%rcx, .Lfo+TF_RSP(%rsp)
	incq	%gs:PERCPU_NR_SYSCALLS
	testl	$(RFLAGS_TF | RFLAGS_RF), %r11d
	jnz	\entry\()_slow_entry
	movq	%gs:PERCPU_CURRENT, %rcx
	cmpl	$0, TASK_WORK(%rcx)
	jne	\entry\()_slow_entry
	movl	%eax, %eax		/* Linux: the number is EAX, unsigned */
	cmpq	$NR_SYSCALLS, %rax
	jae	\entry\()_slow_entry
	movq	%r10, %rcx
	call	*syscall_table(, %rax, 8)
	movq	%gs:PERCPU_CURRENT, %rcx
	cmpl	$0, TASK_WORK(%rcx)
	jne	\entry\()_slow_exit
	movq	.Lfo+TF_RDI(%rsp), %rdi
	movq	.Lfo+TF_RSI(%rsp), %rsi
	movq	.Lfo+TF_RDX(%rsp), %rdx
	movq	.Lfo+TF_R8(%rsp), %r8
	movq	.Lfo+TF_R9(%rsp), %r9
	movq	.Lfo+TF_R10(%rsp), %r10
	movq	.Lfo+TF_RIP(%rsp), %rcx
	movq	.Lfo+TF_RFLAGS(%rsp), %r11
	movq	.Lfo+TF_RSP(%rsp), %rsp
	SYSRET_TAIL \pti

	.globl \sysret
\sysret:
	POP_REGS
	movq	(TF_RSP - TF_VECTOR)(%rsp), %rsp
	SYSRET_TAIL \pti

/*
 * \entry\()_slow_entry: the fast path's tests failed.  In: the fast path's
 * frame stored, RSP .Lfo bytes below it (under PTI the C stack top below the
 * frame page, else the frame itself); RAX = the number, RBX RBP R12-R15 the user's.
 * Completes the frame and runs syscall_slow_entry(); leaves through
 * \sysret or return_to_user_iret.
 * \entry\()_slow_exit: current->work was set after the handler.  In: RSP as
 * for _slow_entry, RAX = the result, RCX = current, RBX RBP R12-R15 the user's
 * unless TASK_WORK_FRAME says the frame was completed (maybe rewritten)
 * already.  Completes it if not, stores RAX, runs syscall_exit_slow();
 * leaves the same way.  Not in .entry.text: the kernel CR3 is loaded.
 */
	.pushsection .text
	.globl \entry\()_slow_entry
\entry\()_slow_entry:
	call	syscall_complete_frame
	leaq	.Lfo(%rsp), %rdi
	call	syscall_slow_entry
	jmp	.L\entry\()_slow_out

	.globl \entry\()_slow_exit
\entry\()_slow_exit:
	testl	$TASK_WORK_FRAME_ASM, TASK_WORK(%rcx)
	jnz	1f
	call	syscall_complete_frame
1:	movq	%rax, .Lfo+TF_RAX(%rsp)
	leaq	.Lfo(%rsp), %rdi
	call	syscall_exit_slow
.L\entry\()_slow_out:
	.if \pti
	BACK_TO_FRAME
	.endif
	testl	%eax, %eax
	jz	return_to_user_iret
	jmp	\sysret
	.popsection
.endm

	.section .entry.text, "ax"
	SYSCALL_ENTRY entry_SYSCALL_64, sysret_to_user, 0
	SYSCALL_ENTRY entry_SYSCALL_64_pti, sysret_to_user_pti, 1

/*
 * syscall_complete_frame: fills in what the fast path left out of the
 * frame at the top of the task stack, so that C sees a struct trap_frame
 * like the old full save built.
 * In:  percpu.top_of_stack - TF_SIZE = the frame with the fast path's
 *      slots stored; RBX RBP R12-R15 = the user's; kernel GS and CR3.
 * Out: RBX RBP R12-R15 stored, RCX = RIP and R11 = RFLAGS slots, CS =
 *      USER_CS, SS = USER_DS, vector = TF_VECTOR_SYSCALL, RAX = -ENOSYS
 *      (Linux's value while a call runs); current->work |= TASK_WORK_FRAME.
 * Clobbers: R10, R11, flags (the argument registers and RAX survive).
 */
	.text
	.p2align 4
	.globl syscall_complete_frame
syscall_complete_frame:
	movq	%gs:PERCPU_TOP_OF_STACK, %r10
	subq	$TF_SIZE, %r10
	SAVE_REGS_CALLEE 0, base=%r10
	movq	TF_RIP(%r10), %r11
	movq	%r11, TF_RCX(%r10)
	movq	TF_RFLAGS(%r10), %r11
	movq	%r11, TF_R11(%r10)
	movq	$USER_CS, TF_CS(%r10)
	movq	$USER_DS, TF_SS(%r10)
	movq	$TF_VECTOR_SYSCALL, TF_VECTOR(%r10)
	movq	$-ENOSYS, TF_RAX(%r10)
	movq	%gs:PERCPU_CURRENT, %r11
	orl	$TASK_WORK_FRAME_ASM, TASK_WORK(%r11)
	ret

/*
 * ptregs_sys_<name>: the table's entry for a handler that needs the
 * complete frame (sys/syscall.c says which and why).
 * In:  as any handler (arguments in RDI RSI RDX RCX R8 R9), called from the
 *      fast path (RBX RBP R12-R15 the user's) or from C on a slow path
 *      (TASK_WORK_FRAME set: the frame is complete already).
 * Out: tail-jumps to sys_<name> with the arguments untouched, after
 *      syscall_complete_frame unless TASK_WORK_FRAME is set.
 * Clobbers: R10, R11, flags (caller-saved, not arguments).
 */
.macro PTREGS_STUB name
	.p2align 4
	.globl ptregs_sys_\name
ptregs_sys_\name:
	movq	%gs:PERCPU_CURRENT, %r11
	testl	$TASK_WORK_FRAME_ASM, TASK_WORK(%r11)
	jnz	sys_\name
	call	syscall_complete_frame
	jmp	sys_\name
.endm

	.irp name, clone, fork, vfork, execve, rt_sigreturn
	PTREGS_STUB \name
	.endr

	.section .note.GNU-stack, "", @progbits
