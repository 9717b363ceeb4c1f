/*
 * Exception and interrupt entry, and every return to user mode.  All of it
 * is in .entry.text, which page-table isolation maps into the user page
 * tables: before the switch to the kernel CR3 (and after the switch back)
 * this code touches only the entry data (per-CPU area, entry stack, IST
 * stacks, GDT, TSS, IDT).
 *
 * One 16-byte stub per exception vector (interrupt stubs: entry_irq.S) pushes
 * the vector and continues in trap_common, or, for the IST vectors (#DB,
 * NMI, #DF, #MC), in paranoid_entry.  Both build a struct trap_frame
 * (trapframe.h) and call trap_dispatch().  The variants (percpu.entry_flags,
 * set once at boot by entry_config.c) cost one flag test where they branch:
 *   EF_PTI               CR3 switched on every entry and exit;
 *   EF_SYSRET            exits after exceptions and interrupts try SYSRET
 *                        through the vDSO trampoline (exit_sysret.c);
 *   EF_IRET_TRAMPOLINE   IRET from the entry stack (always done under PTI).
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/segment.h"
#include "mm/pcid.h"
#include "proc/task_asm.h"

/* Offsets in the frame the CPU and a stub build, below trap_frame's registers. */
#define HW_VECTOR 0
#define HW_ERROR (TF_ERROR - TF_VECTOR)
#define HW_RIP (TF_RIP - TF_VECTOR)
#define HW_CS (TF_CS - TF_VECTOR)
#define HW_RFLAGS (TF_RFLAGS - TF_VECTOR)
#define HW_RSP (TF_RSP - TF_VECTOR)
#define HW_SS (TF_SS - TF_VECTOR)

	.section .entry.text, "ax"

/*
 * trap_stub_N
 * In:  CPU exception frame on the stack (SS, RSP, RFLAGS, CS, RIP and, for
 *      vectors in X86_ERROR_CODE_VECTORS, the error code); IF = 0 (interrupt gate).
 * Out: error code (0 where the CPU pushes none) and vector pushed; jumps to
 *      trap_common or paranoid_entry.  Clobbers nothing.
 */
.macro TRAP_STUB vec
	.p2align 4
trap_stub_\vec:
	.if ((1 << \vec) & X86_ERROR_CODE_VECTORS) == 0
	pushq	$0
	.endif
	pushq	$\vec
	.if \vec == 1
	jmp	debug_entry
	.elseif ((1 << \vec) & IST_VECTORS)
	jmp	paranoid_entry
	.else
	jmp	trap_common
	.endif
.endm

	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	TRAP_STUB \vec
	.endr

/*
 * trap_common (exceptions and interrupts without IST)
 * In:  RSP -> vector, error code, hardware frame.  From kernel mode: on the
 *      kernel stack, kernel GS and CR3.  (Unless the fault is an IRET's to user
 *      mode: .Lfrom_kernel.)  From user mode: on TSS.RSP0, which
 *      is the task stack, or under PTI the entry stack with the user CR3;
 *      user GS.
 * Out: never returns here: to user mode through exit_to_user (below), to
 *      kernel mode through restore_regs_and_iret.
 * Calls trap_dispatch(RDI = struct trap_frame *) on a 16-byte aligned stack,
 * with kernel GS and CR3, IF = 0.  Under PTI the hardware frame moves from
 * the entry stack to the task stack (Linux's sync_regs), with one register
 * parked in percpu.scratch while it is needed as the CR3 scratch.
 */
	.p2align 4
	.globl trap_common /* also the interrupt stubs' (entry_irq.S) */
trap_common:
	testb	$3, HW_CS(%rsp)
	jz	.Lfrom_kernel
	swapgs
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	.Lsave_regs
	movq	%rdi, %gs:PERCPU_SCRATCH
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rdi
	movq	%rsp, %rdi
.Lmove_frame:
	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	pushq	HW_SS(%rdi)
	pushq	HW_RSP(%rdi)
	pushq	HW_RFLAGS(%rdi)
	pushq	HW_CS(%rdi)
	pushq	HW_RIP(%rdi)
	pushq	HW_ERROR(%rdi)
	pushq	HW_VECTOR(%rdi)
	movq	%gs:PERCPU_SCRATCH, %rdi
.Lsave_regs:
	SAVE_REGS
.Ldispatch:
	movq	%rsp, %rdi
	call	trap_dispatch
	testb	$3, TF_CS(%rsp)
	jz	restore_regs_and_iret
	/* fall through */

/*
 * exit_to_user: the return to user mode of every exception and interrupt.
 * In:  RSP -> struct trap_frame of a user context (CS.RPL = 3) on the task
 *      stack; kernel GS and CR3; IF = 0.
 * Out: the frame's registers in user mode, by SYSRET when EF_SYSRET is on
 *      and exit_sysret_prepare() made the frame SYSRET-able, else by IRET;
 *      first exit_to_user_work() when current->work is not 0 (one test).
 *      RAX is scratch: every register is in the frame by now.
 */
	.globl exit_to_user
exit_to_user:
	movq	%gs:PERCPU_CURRENT, %rax
	cmpl	$0, TASK_WORK(%rax)
	jne	.Lexit_work
.Lexit_work_done:
	testb	$EF_SYSRET, %gs:PERCPU_ENTRY_FLAGS
	jz	return_to_user_iret
	movq	%rsp, %rdi
	call	exit_sysret_prepare
	testl	%eax, %eax
	jz	return_to_user_iret
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jnz	sysret_to_user_pti
	jmp	sysret_to_user

/* current->work: signals, rescheduling, ptrace stops (proc/sched.c); may rewrite the frame. */
.Lexit_work:
	movq	%rsp, %rdi
	call	exit_to_user_work
	jmp	.Lexit_work_done

/*
 * User RIPs and the two ways back.
 * SYSRET takes RIP from RCX, and on Intel a non-canonical RCX makes it raise
 * #GP in ring 0 with the user RSP and GS already loaded: no exit may SYSRET
 * with one.  Not every writer of a frame's RIP keeps it canonical:
 * rt_sigreturn, ptrace (POKEUSER, SETREGS) and a signal handler's address
 * take any value, as on Linux.  What holds instead:
 *   - the SYSCALL fast path (syscall_dispatch() returns 1 without its slow
 *     path) SYSRETs with the RCX the SYSCALL instruction wrote: the address
 *     after an instruction fetched in user mode, so canonical (user
 *     mappings end below TASK_SIZE_MAX, the last lower-half page is never
 *     mapped, so it is at most TASK_SIZE_MAX; or it is in the vsyscall page
 *     at the top).  Nothing rewrites that frame without taking the slow
 *     path: rt_sigreturn, execve and ptrace set TASK_WORK_FRAME, signal
 *     delivery and syscall restarts run in exit_to_user_work(), which only
 *     a non-zero current->work reaches;
 *   - the slow path (sysret_allowed(), sys/syscall.c) SYSRETs only with
 *     RCX == RIP < TASK_SIZE_MAX, and exit_sysret_prepare() only with
 *     RIP < TASK_SIZE_MAX (RCX is then the vDSO trampoline's address);
 *   - every other return IRETs, here.  IRET refuses a non-canonical RIP
 *     (and a CS or SS it cannot load) with a fault at the IRET itself, in
 *     ring 0 but with the user's registers, GS and, after the trampoline's
 *     switch, CR3: .Lfrom_kernel below recognises the two IRETs and
 *     bad_iret.c turns the fault into the user's (SIGSEGV, SIGBUS).
 *
 * return_to_user_iret: IRET to user mode (also the SYSCALL path's exit when
 * SYSRET cannot restore the frame, and the first entry of a process).
 * In:  as exit_to_user.
 * Out: every register from the frame, user GS; with EF_PTI the user CR3.
 *   direct (no PTI, no trampoline): IRET from the task stack.
 *   EF_IRET_TRAMPOLINE or EF_PTI: the IRET frame and the user RDI are copied
 *   to the entry stack and the IRET runs there, the only stack the user
 *   page tables map; RDI is the CR3 scratch.
 */
	.globl return_to_user_iret
return_to_user_iret:
	testb	$(EF_PTI | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jnz	.Liret_from_entry_stack
	swapgs
	POP_REGS
	addq	$(TF_RIP - TF_VECTOR), %rsp
.Liret_direct:
	iretq

.Liret_from_entry_stack:
	POP_REGS keep_rdi=1
	movq	%rsp, %rdi	/* -> user RDI, then vector, error, hardware frame */
	movq	%gs:PERCPU_ENTRY_STACK_TOP, %rsp
	pushq	(8 + HW_SS)(%rdi)
	pushq	(8 + HW_RSP)(%rdi)
	pushq	(8 + HW_RFLAGS)(%rdi)
	pushq	(8 + HW_CS)(%rdi)
	pushq	(8 + HW_RIP)(%rdi)
	pushq	(%rdi)
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_USER_CR3 scratch_reg=%rdi
1:	popq	%rdi
	swapgs
.Liret_tramp:
	iretq

/*
 * A fault from kernel mode.  One kind is not the kernel's own: an IRET above
 * refused the user frame (#GP, #NP, #SS: a selector it cannot load, a
 * non-canonical RIP; bad_iret.c).
 * In:  as trap_common, CS.RPL = 0.  At the two IRETs every register, GS
 *      and, after the trampoline's switch, CR3 are already the user's.
 * Out: any other fault: .Lsave_regs, nothing to switch.  A refused IRET:
 *      kernel GS and CR3 (RDI parked in percpu.scratch meanwhile), the
 *      registers saved as a frame on the stack the IRET ran on, which
 *      bad_iret_frame() turns into the user frame at the top of the task
 *      stack (RAX); the fault is dispatched from there as a user fault.
 */
.Lfrom_kernel:
	cmpq	$.Liret_direct, HW_RIP(%rsp)
	je	.Lbad_iret
	cmpq	$.Liret_tramp, HW_RIP(%rsp)
	jne	.Lsave_regs
.Lbad_iret:
	swapgs
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	movq	%rdi, %gs:PERCPU_SCRATCH
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rdi
	movq	%gs:PERCPU_SCRATCH, %rdi
1:	SAVE_REGS
	movq	%rsp, %rdi
	call	bad_iret_frame
	movq	%rax, %rsp
	jmp	.Ldispatch

/*
 * restore_regs_and_iret: back to kernel mode (nothing to switch), or from
 * the paranoid entry to whatever it interrupted.
 * In:  RSP -> struct trap_frame; the GS and CR3 of the interrupted context.
 * Out: every register from the frame, IRET on the stack the frame is on.
 */
restore_regs_and_iret:
	POP_REGS
	addq	$(TF_RIP - TF_VECTOR), %rsp
	iretq

/*
 * debug_entry (#DB, on its IST stack)
 * In:  as paranoid_entry.
 * Out: from kernel mode: paranoid_entry.  From user mode (a single step, a
 *      breakpoint) the CPU state is known: user GS and, with PTI, the user
 *      CR3; the frame moves to the task stack as trap_common's PTI path
 *      moves it, so that the SIGTRAP it raises can be delivered, stop for a
 *      tracer and switch tasks like any other user exception.
 */
	.p2align 4
debug_entry:
	testb	$3, HW_CS(%rsp)
	jz	paranoid_entry
	swapgs
	movq	%rdi, %gs:PERCPU_SCRATCH
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rdi
1:	movq	%rsp, %rdi
	jmp	.Lmove_frame

/*
 * paranoid_entry (#DB, NMI, #DF, #MC: on their IST stacks, mapped in the
 * user page tables too)
 * In:  RSP -> vector, error code, hardware frame on an IST stack.  These
 *      can interrupt any instruction, including the windows between SWAPGS
 *      and IRET/SYSRET and between a CR3 switch and the stack switch: the
 *      CS of the frame says nothing about GS or CR3.
 *      GS: exactly one of GS_BASE and KERNEL_GS_BASE is &cpu0 at any time
 *      (one CPU), so GS_BASE == &cpu0 means the kernel's, else SWAPGS.
 *      CR3: with PTI, bit 12 set means a user PGD (kernel PGDs are 8 KiB
 *      aligned); it is switched to the kernel's and restored afterwards.
 * Out: the interrupted GS, CR3 and registers (the handler may have changed
 *      the frame), IRET from the IST stack.
 * RBX (1: SWAPGS done) and R14 (the interrupted CR3, 0 without PTI) are
 * callee-saved, so they survive trap_dispatch().
 */
	.p2align 4
paranoid_entry:
	SAVE_REGS
	movl	$MSR_GS_BASE, %ecx
	rdmsr
	shlq	$32, %rdx
	orq	%rax, %rdx
	xorl	%ebx, %ebx
	movq	$cpu0, %rax
	cmpq	%rax, %rdx
	je	1f
	swapgs
	movl	$1, %ebx
1:	xorl	%r14d, %r14d
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	2f
	SAVE_AND_SWITCH_TO_KERNEL_CR3 scratch_reg=%rax, save_reg=%r14
2:	movq	%rsp, %rdi
	call	trap_dispatch
	RESTORE_CR3 save_reg=%r14
	testl	%ebx, %ebx
	jz	restore_regs_and_iret
	swapgs
	jmp	restore_regs_and_iret

/*
 * enter_user
 * In:  RDI = struct trap_frame for the new user context, at the top of the
 *      kernel stack the process's entries will use; kernel GS; IF = 0.
 * Out: does not return: RSP := RDI, then return_to_user_iret.
 */
	.globl enter_user
enter_user:
	movq	%rdi, %rsp
	jmp	return_to_user_iret

/* Stub addresses by vector, for idt.c (read at boot only, so not entry data). */
	.section .rodata
	.balign 8
	.globl trap_stubs
trap_stubs:
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad	trap_stub_\vec
	.endr

	.section .note.GNU-stack, "", @progbits
