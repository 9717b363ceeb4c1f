/*
 * Macros of the entry asm (entry.S, entry_syscall.S): saving and restoring
 * the registers of a struct trap_frame (trapframe.h), and the CR3 switches
 * of page-table isolation.  Asm only.
 *
 * CR3 switches.  Each takes the register it may clobber as an explicit
 * argument: the entry paths have different registers free (RSP on the
 * SYSCALL path before the stack switch, RDI parked in percpu.scratch on
 * the exception path, RAX in the paranoid entry).  All need the kernel GS
 * (the values are per-CPU) and touch no stack.  PCID is not tested here:
 * the C side (mm/pcid.c) precomputes the values they load, so with and
 * without PCID the instructions are the same:
 *   kernel_cr3        the kernel PGD; with PCID its kernel PCID and NOFLUSH
 *                     (bit 63), so the kernel's translations survive;
 *   user_cr3          the user PGD (kernel PGD + 4096); with PCID the user
 *                     PCID and NOFLUSH, except while a flush of the user
 *                     PCID is pending: then without NOFLUSH, once;
 *   user_cr3_steady   what user_cr3 becomes after that exit;
 *   cr3_noflush       NOFLUSH with PCID, else 0 (for CR3 values read back:
 *                     a CR3 read never shows bit 63).
 */
#ifndef EL_ENTRY_CALLING_H
#define EL_ENTRY_CALLING_H

#ifndef __ASSEMBLER__
#error "calling.h is for the entry asm"
#endif

#include "arch/x86_64/entry/frame_page.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"
#include "mm/pcid.h"

/* Offsets in the frame the CPU and a stub build, below trap_frame's registers. */
#define HW_VECTOR 0
#define HW_ERROR (TF_ERROR - TF_VECTOR)
#define HW_RIP (TF_RIP - TF_VECTOR)
#define HW_CS (TF_CS - TF_VECTOR)
#define HW_RFLAGS (TF_RFLAGS - TF_VECTOR)
#define HW_RSP (TF_RSP - TF_VECTOR)
#define HW_SS (TF_SS - TF_VECTOR)

/*
 * SAVE_REGS: RSP -> the vector slot of a trap_frame (the stub pushed vector
 * and error code under the hardware frame): makes room for the general
 * registers and stores them at their TF_* offsets; clears DF for C.
 */
.macro SAVE_REGS
	SAVE_REGS_CALLER
	SAVE_REGS_CALLEE 0
.endm

/*
 * SAVE_REGS_CALLER: as SAVE_REGS for the caller-saved registers only (RDI,
 * RSI, RDX, RCX, RAX, R8-R11), the fast entries' (USER_FAST_ENTRY): their C
 * handler preserves RBX, RBP, R12-R15 by the ABI, so those stay the user's
 * in the registers, and their slots in the frame are not written.
 * SAVE_REGS_CALLEE off, base: completes such a frame at off(base) (base:
 * RSP unless given) with them, before anything that needs the whole frame
 * (exit work, the variants, the syscall slow paths).
 */
.macro SAVE_REGS_CALLER
	subq	$TF_VECTOR, %rsp
	movq	%rdi, TF_RDI(%rsp)
	movq	%rsi, TF_RSI(%rsp)
	movq	%rdx, TF_RDX(%rsp)
	movq	%rcx, TF_RCX(%rsp)
	movq	%rax, TF_RAX(%rsp)
	movq	%r8, TF_R8(%rsp)
	movq	%r9, TF_R9(%rsp)
	movq	%r10, TF_R10(%rsp)
	movq	%r11, TF_R11(%rsp)
	cld
.endm
.macro SAVE_REGS_CALLEE off, base=%rsp
	movq	%rbx, (TF_RBX + \off)(\base)
	movq	%rbp, (TF_RBP + \off)(\base)
	movq	%r12, (TF_R12 + \off)(\base)
	movq	%r13, (TF_R13 + \off)(\base)
	movq	%r14, (TF_R14 + \off)(\base)
	movq	%r15, (TF_R15 + \off)(\base)
.endm

/* Pops reg and checks at assembly time that it comes from offset `off` of the frame. */
.macro POP_AT reg, off
	.if .Lpop_slot != \off
	.error "POP_REGS pop order disagrees with trapframe.h"
	.endif
	popq	\reg
	.set .Lpop_slot, .Lpop_slot + 8
.endm

/*
 * POP_REGS: RSP -> a trap_frame; pops its general registers, leaving RSP at
 * the vector slot (with keep_rdi=1: RDI stays in the frame and RSP points
 * at it).  With caller_only=1, RSP -> the frame's R11 slot (the callee-saved
 * slots above, skipped: the registers still hold them): only the
 * caller-saved ones.
 */
.macro POP_REGS keep_rdi=0, caller_only=0
	.if \caller_only
	.set .Lpop_slot, TF_R11
	.else
	.set .Lpop_slot, 0
	POP_AT	%r15, TF_R15
	POP_AT	%r14, TF_R14
	POP_AT	%r13, TF_R13
	POP_AT	%r12, TF_R12
	POP_AT	%rbp, TF_RBP
	POP_AT	%rbx, TF_RBX
	.endif
	POP_AT	%r11, TF_R11
	POP_AT	%r10, TF_R10
	POP_AT	%r9, TF_R9
	POP_AT	%r8, TF_R8
	POP_AT	%rax, TF_RAX
	POP_AT	%rcx, TF_RCX
	POP_AT	%rdx, TF_RDX
	POP_AT	%rsi, TF_RSI
	.if \keep_rdi == 0
	POP_AT	%rdi, TF_RDI
	.endif
.endm

/* SWITCH_TO_KERNEL_CR3 scratch_reg: CR3 := kernel_cr3.  Clobbers scratch_reg. */
.macro SWITCH_TO_KERNEL_CR3 scratch_reg:req
	movq	%gs:PERCPU_KERNEL_CR3, \scratch_reg
	movq	\scratch_reg, %cr3
.endm

/*
 * SWITCH_TO_USER_CR3 scratch_reg: CR3 := user_cr3 (a pending user-PCID
 * flush is in it once), then user_cr3 := user_cr3_steady.  Clobbers
 * scratch_reg.  After it, of the kernel, only the entry text and data
 * are mapped.
 */
.macro SWITCH_TO_USER_CR3 scratch_reg:req
	movq	%gs:PERCPU_USER_CR3, \scratch_reg
	movq	\scratch_reg, %cr3
	movq	%gs:PERCPU_USER_CR3_STEADY, \scratch_reg
	movq	\scratch_reg, %gs:PERCPU_USER_CR3
.endm

/*
 * SAVE_AND_SWITCH_TO_KERNEL_CR3 scratch_reg, save_reg: for entries that may
 * find either CR3 (the paranoid entry).  save_reg := CR3; if that is a user
 * PGD (CR3_PTI_USER_PGD; kernel PGDs are 8 KiB aligned), CR3 := kernel_cr3.
 * Clobbers scratch_reg.  save_reg is one of %r8-%r15 (the test uses its
 * 32-bit name, save_reg with a `d`), callee-saved if it has to survive a
 * call until RESTORE_CR3.
 */
.macro SAVE_AND_SWITCH_TO_KERNEL_CR3 scratch_reg:req, save_reg:req
	movq	%cr3, \save_reg
	testl	$CR3_PTI_USER_PGD, \save_reg\()d
	jz	.Lcr3_was_kernel_\@
	SWITCH_TO_KERNEL_CR3 \scratch_reg
.Lcr3_was_kernel_\@:
.endm

/*
 * RESTORE_CR3 save_reg: back to the CR3 SAVE_AND_SWITCH_TO_KERNEL_CR3 found,
 * if it was a user PGD, with NOFLUSH under PCID (cr3_noflush) so the user
 * PCID keeps its translations.  Clobbers save_reg.
 */
.macro RESTORE_CR3 save_reg:req
	testl	$CR3_PTI_USER_PGD, \save_reg\()d
	jz	.Lcr3_kept_\@
	orq	%gs:PERCPU_CR3_NOFLUSH, \save_reg
	movq	\save_reg, %cr3
.Lcr3_kept_\@:
.endm

/*
 * BELOW_FRAME_PAGE: RSP -> the user trap frame at the top of the task
 * stack; RSP := the top of the C stack, the page boundary below the frame
 * page (frame_page.h), where every entry from user mode runs its C code.
 * BACK_TO_FRAME: the reverse, once the C calls are balanced.  Flags kept.
 */
.macro BELOW_FRAME_PAGE
	leaq	-FRAME_PAGE_GAP(%rsp), %rsp
.endm
.macro BACK_TO_FRAME
	leaq	FRAME_PAGE_GAP(%rsp), %rsp
.endm

/*
 * USER_FAST_ENTRY name, vec, handler, pti, errcode, tail
 * The IDT entry of a vector whose user-mode events all go to one C handler
 * (#PF: page_fault(); each interrupt: its handler), without trap_dispatch().
 * Two copies of each, chosen at boot (pti=0 / pti=1: idt.c, irq.c), so
 * neither tests a flag.
 * In:  the CPU's frame (with the error code when errcode=1); IF = 0.  From
 *      user mode on TSS.RSP0 = the task stack top (the frame page, mapped in
 *      the user page tables under PTI), user GS (and CR3).
 * Out: from kernel mode: trap_kernel (entry.S), the generic path.  From
 *      user mode: the caller-saved registers saved in place
 *      (SAVE_REGS_CALLER), kernel GS and CR3, then handler(RDI = the frame)
 *      (under PTI on the C stack below the frame page), then
 *      exit_fast / exit_fast_pti (entry.S): jumped to, or with tail=0
 *      fallen into (the caller places the exit right after it).
 * The handler must not read or write the frame's callee-saved slots (none
 * does: #PF and the interrupt handlers use RIP, CS, RSP, the error code,
 * the vector and, for vsyscall emulation, RAX, RDI, RSI); anything that
 * needs them (signal delivery, ptrace, a task switch) runs in the exit's
 * work, after SAVE_REGS_CALLEE.
 * Clobbers: nothing of the user's.
 */
.macro USER_FAST_ENTRY name, vec, handler, pti, errcode, tail=1
	.p2align 4
	.globl	\name
\name:
	.if \errcode == 0
	pushq	$0
	.endif
	pushq	$\vec
	testb	$3, HW_CS(%rsp)
	jz	trap_kernel
	swapgs
	SAVE_REGS_CALLER
	movq	%rsp, %rdi
	.if \pti
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rax
	BELOW_FRAME_PAGE
	call	\handler
	.if \tail
	jmp	exit_fast_pti
	.endif
	.else
	call	\handler
	.if \tail
	jmp	exit_fast
	.endif
	.endif
.endm

#endif
