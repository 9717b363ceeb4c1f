/*
 * Kernel stack switch between tasks, and the first return of a new task.
 * Ordinary .text: both run on the kernel CR3 with kernel GS.
 */
#include "arch/x86_64/entry/trapframe.h"

	.text

/*
 * switch_stacks(uint64_t *save_rsp, uint64_t next_rsp)
 * In:  RDI = where to keep the outgoing task's RSP, RSI = the incoming
 *      task's saved RSP (a switch_stacks frame, or a new task's initial
 *      one: SWITCH_FRAME_WORDS words, then the return address).
 * Out: returns on the incoming task's stack, with its RBX, RBP, R12-R15;
 *      the caller-saved registers are clobbered as for any call.
 */
	.globl switch_stacks
switch_stacks:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret

/*
 * ret_from_fork: where a new task's first switch_stacks returns.
 * In:  RSP -> its struct trap_frame (the top of its kernel stack: the
 *      parent's user frame, with the child's RAX, RSP and FS base).
 * Out: to user mode through return_to_user_iret, after sched_tail_fork()
 *      (finishes the switch, CLONE_CHILD_SETTID, pending work).
 */
	.globl ret_from_fork
ret_from_fork:
	movq	%rsp, %rdi
	call	sched_tail_fork
	jmp	return_to_user_iret

	.section .note.GNU-stack, "", @progbits
