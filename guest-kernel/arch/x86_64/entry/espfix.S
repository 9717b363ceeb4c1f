/*
 * espfix_iret: the IRET to user mode for a frame whose SS is an LDT
 * selector, from the read-only espfix alias (arch/x86_64/espfix.h), so
 * that an SS with B = 0, which loads only SP[15:0], leaves the user's own
 * RSP[31:16] in the register instead of the kernel stack's.  In
 * .entry.text: under PTI the last instructions run on the user CR3.
 * Reached from the slow exits only (entry.S: .Lexit_work, .Lexit_work_pti,
 * return_to_user_iret), never from a fast path: a task that can have an
 * LDT SS carries TASK_WORK_ESPFIX.
 * In:  RSP -> struct trap_frame of a user context at the task stack top,
 *      its SS an LDT selector; current->work done; kernel GS and CR3;
 *      IF = 0.  Every variant (EF_SYSRET never applies to an LDT SS, the
 *      trampoline is replaced by the espfix stack).
 * Out: every register from the frame, user GS, with EF_PTI the user CR3;
 *      IRET from ESPFIX_BASE + (user RSP & 0xffff0000) + ESPFIX_FRAME_OFF.
 *      The frame's vector slot carries that address past the pops (the
 *      frame page stays mapped after the CR3 switch: pti.c); RDI is the
 *      CR3 scratch, popped last.  A refused IRET cannot push its fault's
 *      frame on the read-only alias: #DF, espfix_df_fixup() (bad_iret.c).
 * Clobbers: nothing of the user's.
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/percpu.h"

#if ESPFIX_FRAME_SIZE != 5 * 8 || TF_SS - TF_RIP != 4 * 8
#error "the espfix frame is the trap frame's IRET frame, RIP to SS"
#endif

	.section .entry.text, "ax"
	.p2align 4
	.globl espfix_iret
espfix_iret:
	/* The IRET frame into the page, through its writable image address. */
	movq	TF_RIP(%rsp), %rax
	movq	%rax, (espfix_page + ESPFIX_FRAME_OFF + 0)(%rip)
	movq	TF_CS(%rsp), %rax
	movq	%rax, (espfix_page + ESPFIX_FRAME_OFF + 8)(%rip)
	movq	TF_RFLAGS(%rsp), %rax
	movq	%rax, (espfix_page + ESPFIX_FRAME_OFF + 16)(%rip)
	movq	TF_SS(%rsp), %rax
	movq	%rax, (espfix_page + ESPFIX_FRAME_OFF + 32)(%rip)
	movq	TF_RSP(%rsp), %rax
	movq	%rax, (espfix_page + ESPFIX_FRAME_OFF + 24)(%rip)
	/* Its alias with the user's RSP[31:16]: andl zero-extends into RAX. */
	andl	$0xffff0000, %eax
	movabsq	$(ESPFIX_BASE + ESPFIX_FRAME_OFF), %rcx
	orq	%rcx, %rax
	movq	%rax, TF_VECTOR(%rsp)
	POP_REGS keep_rdi=1		/* RSP -> RDI slot, the alias right above */
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_USER_CR3 scratch_reg=%rdi
1:	popq	%rdi
	swapgs
	movq	(%rsp), %rsp
	.globl espfix_iret_insn
espfix_iret_insn:
	iretq

	.section .note.GNU-stack, "", @progbits
