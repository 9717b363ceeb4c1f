/*
 * Kernel stack switch between tasks, and the first return of a new task.
 * Ordinary .text: both run on the kernel CR3 with kernel GS.
 */
#include "arch/x86_64/entry/frame_page.h"
#include "arch/x86_64/switch.h"

/* Pushes/pops one callee-saved register of the switch frame, counting them (switch.h). */
.macro SWITCH_PUSH reg
	pushq	\reg
	.set .Lswitch_words, .Lswitch_words + 1
.endm
.macro SWITCH_POP reg
	popq	\reg
	.set .Lswitch_words, .Lswitch_words - 1
.endm

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
	.set .Lswitch_words, 0
	SWITCH_PUSH %rbp
	SWITCH_PUSH %rbx
	SWITCH_PUSH %r12
	SWITCH_PUSH %r13
	SWITCH_PUSH %r14
	SWITCH_PUSH %r15
	.if .Lswitch_words != SWITCH_FRAME_WORDS
	.error "switch_stacks pushes a frame of another size than SWITCH_FRAME_WORDS (switch.h)"
	.endif
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	SWITCH_POP %r15
	SWITCH_POP %r14
	SWITCH_POP %r13
	SWITCH_POP %r12
	SWITCH_POP %rbx
	SWITCH_POP %rbp
	.if .Lswitch_words != 0
	.error "switch_stacks pops another number of words than it pushes"
	.endif
	ret

/*
 * ret_from_fork: where a new task's first switch_stacks returns.
 * In:  RSP = the top of its C stack, right below the frame page
 *      (entry/frame_page.h: task_stack_init_fork() put the switch frame
 *      there), whose end is its struct trap_frame (the parent's user frame,
 *      with the child's RAX, RSP and FS base).
 * Out: to user mode through return_to_user_iret (RSP -> the frame), after
 *      sched_tail_fork() (finishes the switch, CLONE_CHILD_SETTID, pending
 *      work), which runs below the frame page.
 */
	.globl ret_from_fork
ret_from_fork:
	leaq	FRAME_PAGE_GAP(%rsp), %rdi
	call	sched_tail_fork
	leaq	FRAME_PAGE_GAP(%rsp), %rsp
	jmp	return_to_user_iret

	.section .note.GNU-stack, "", @progbits
