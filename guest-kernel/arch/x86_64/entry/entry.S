/*
 * Exception and interrupt entry, and every return to user mode.  All of it
 * is in .entry.text, which page-table isolation maps into the user page
 * tables: before the switch to the kernel CR3 (and after the switch back)
 * this code touches only the entry data (per-CPU area, entry stack, IST
 * stacks, GDT, TSS, IDT) and the current task's frame page (frame_page.h,
 * mm/pti.c).
 *
 * The frame.  From user mode the CPU pushes its frame at TSS.RSP0, the top
 * of the current task's kernel stack, with and without PTI; the entry saves
 * the registers below it, so the struct trap_frame (trapframe.h) is built
 * in place, where task_user_frame() finds it.  Under PTI that page (the
 * frame page) is mapped in the user page tables while its task is current,
 * so the registers are saved before the CR3 switch and restored after the
 * switch back, and nothing is copied; the C code then runs below the page
 * (BELOW_FRAME_PAGE), which keeps it free of anything but the user's own
 * registers.
 *
 * The entries:
 *   #PF and the interrupts (USER_FAST_ENTRY, calling.h; the interrupts in
 *     entry_irq.S) call their one C handler straight from the stub, in two
 *     copies the IDT chooses between at boot (without and with PTI);
 *   the other exceptions: one 16-byte stub per vector pushes the vector and
 *     continues in trap_common (trap_dispatch()), or, for the IST vectors
 *     (#DB, NMI, #DF, #MC), in paranoid_entry;
 *   from kernel mode everything goes through trap_kernel.
 * The exits: exit_fast and exit_fast_pti after the fast entries (which save
 * only the caller-saved registers: the C handler keeps the others), and
 * exit_to_user and exit_to_user_pti after the others (chosen by the entry
 * copy), test current->work, then one combined test of the boot-time
 * variants (percpu.entry_flags, entry_config.c), then IRET:
 *   EF_PTI               CR3 switched on every entry and exit;
 *   EF_SYSRET            exits after exceptions and interrupts try SYSRET
 *                        through the vDSO trampoline (exit_sysret.S);
 *   EF_IRET_TRAMPOLINE   IRET from the entry stack (return_to_user_iret).
 * A frame with an LDT SS (a 16-bit stack segment may be one) IRETs from
 * the espfix stack instead, in every variant (espfix.S, ../espfix.h): only
 * a task with TASK_WORK_ESPFIX can have one, so the test of the frame's SS
 * sits on the slow exits only, after exit_to_user_work() and in
 * return_to_user_iret; the fast exits never see such a frame.
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/frame_page.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/segment.h"
#include "mm/pcid.h"
#include "proc/task_asm.h"

	.section .entry.text, "ax"

/*
 * trap_stub_N
 * In:  CPU exception frame on the stack (SS, RSP, RFLAGS, CS, RIP and, for
 *      vectors in X86_ERROR_CODE_VECTORS, the error code); IF = 0 (interrupt gate).
 * Out: error code (0 where the CPU pushes none) and vector pushed; jumps to
 *      trap_common or paranoid_entry.  Clobbers nothing.
 * (Vector 14 has its own entries below; its stub here serves the table.)
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
 * trap_common (exceptions without a fast entry)
 * In:  RSP -> vector, error code, hardware frame.  From kernel mode: on the
 *      kernel stack, kernel GS and CR3 (trap_kernel).  From user mode: on
 *      TSS.RSP0, the frame page at the task stack top; user GS and CR3.
 * Out: never returns here: to user mode through exit_to_user(_pti), to
 *      kernel mode through restore_regs_and_iret.
 * .Luser_trap: RSP -> the complete user frame at the task stack top, kernel
 * GS; calls trap_dispatch(RDI = the frame) below the frame page with the
 * kernel CR3, IF = 0.  (Not the hot path: the variant is a run-time test.)
 */
	.p2align 4
trap_common:
	testb	$3, HW_CS(%rsp)
	jz	trap_kernel
	swapgs
	SAVE_REGS
.Luser_trap:
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rax
1:	movq	%rsp, %rdi
	BELOW_FRAME_PAGE
	call	trap_dispatch
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_to_user_pti
	BACK_TO_FRAME
	jmp	exit_to_user

/*
 * page_fault_entry, page_fault_entry_pti: #PF, the IDT's choice at boot
 * (idt_set_pti(), idt.c).  USER_FAST_ENTRY with page_fault() (user_traps.c);
 * each falls into its exit.
 */
	USER_FAST_ENTRY page_fault_entry, 14, page_fault, pti=0, errcode=1, tail=0

/*
 * exit_fast: the return to user mode of the fast entries without PTI
 * (USER_FAST_ENTRY: #PF, the interrupts).
 * In:  RSP -> the user frame at the task stack top, its caller-saved slots
 *      written, RBX, RBP, R12-R15 still the user's in the registers (the C
 *      handler preserved them) and not in the frame; kernel GS and CR3;
 *      IF = 0.
 * Out: with current->work 0 and no exit variant (one test each): the
 *      caller-saved registers from the frame, IRET.  With work the frame is
 *      completed (SAVE_REGS_CALLEE) and exit_to_user takes over; with a
 *      variant exit_sysret_fast (exit_sysret.S; it completes the frame
 *      itself when it falls back to return_to_user_iret).
 */
	.globl exit_fast
exit_fast:
	movq	%gs:PERCPU_CURRENT, %rax
	cmpl	$0, TASK_WORK(%rax)
	jne	.Lfast_complete
	testb	$(EF_SYSRET | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_sysret_fast
	swapgs
	addq	$TF_R11, %rsp
	POP_REGS caller_only=1
	addq	$(TF_RIP - TF_VECTOR), %rsp
.Liret_fast:
	iretq

.Lfast_complete:
	SAVE_REGS_CALLEE 0
	jmp	exit_to_user

/*
 * exit_to_user: the return to user mode of every exception and interrupt
 * entered without PTI.
 * In:  RSP -> struct trap_frame of a user context (CS.RPL = 3) at the task
 *      stack top; kernel GS and CR3; IF = 0.
 * Out: the frame's registers in user mode; first exit_to_user_work() when
 *      current->work is not 0 (one test); then with no variant (one
 *      combined test) IRET right here, else exit_sysret (exit_sysret.S):
 *      SYSRET when EF_SYSRET is on and the frame qualifies, else
 *      return_to_user_iret.  After the work, a frame with an LDT SS goes
 *      to espfix_iret (espfix.S) instead.  Every register is scratch: all
 *      are in the frame.
 */
	.globl exit_to_user
exit_to_user:
	movq	%gs:PERCPU_CURRENT, %rax
	cmpl	$0, TASK_WORK(%rax)
	jne	.Lexit_work
.Lexit_ready:
	testb	$(EF_SYSRET | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_sysret
.Liret_plain:
	swapgs
	POP_REGS
	addq	$(TF_RIP - TF_VECTOR), %rsp
.Liret_direct:
	iretq

/* current->work: signals, rescheduling, ptrace stops (proc/sched.c); may rewrite the frame. */
.Lexit_work:
	movq	%rsp, %rdi
	call	exit_to_user_work
	testb	$SEL_TI_LDT, TF_SS(%rsp)
	jnz	espfix_iret
	jmp	.Lexit_ready

	USER_FAST_ENTRY page_fault_entry_pti, 14, page_fault, pti=1, errcode=1, tail=0

/*
 * exit_fast_pti: as exit_fast, for the fast entries under PTI.
 * In:  as exit_fast, but RSP = the C stack's top below the frame page.
 * Out: as exit_fast (the completed frame goes to exit_to_user_pti); the
 *      IRET switches to the user CR3 after the pops (RDI its scratch,
 *      popped last) and runs on the frame page.
 */
	.globl exit_fast_pti
exit_fast_pti:
	movq	%gs:PERCPU_CURRENT, %rax
	cmpl	$0, TASK_WORK(%rax)
	jne	.Lfast_complete_pti
	testb	$(EF_SYSRET | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_sysret_fast_pti
	leaq	(FRAME_PAGE_GAP + TF_R11)(%rsp), %rsp
	POP_REGS keep_rdi=1, caller_only=1
	SWITCH_TO_USER_CR3 scratch_reg=%rdi
	popq	%rdi
	swapgs
	addq	$(TF_RIP - TF_VECTOR), %rsp
.Liret_fast_pti:
	iretq

.Lfast_complete_pti:
	SAVE_REGS_CALLEE FRAME_PAGE_GAP
	jmp	exit_to_user_pti

/*
 * exit_to_user_pti: as exit_to_user, for the entries under PTI.
 * In:  RSP = the C stack's top below the frame page (BELOW_FRAME_PAGE), the
 *      user frame above it; kernel GS and CR3; IF = 0.
 * Out: as exit_to_user; the IRET restores the registers from the frame,
 *      switches to the user CR3 (RDI its scratch, popped last) and IRETs
 *      from the frame page, which the user page tables map.
 */
	.globl exit_to_user_pti
exit_to_user_pti:
	movq	%gs:PERCPU_CURRENT, %rax
	cmpl	$0, TASK_WORK(%rax)
	jne	.Lexit_work_pti
.Lexit_ready_pti:
	testb	$(EF_SYSRET | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_sysret_pti
	BACK_TO_FRAME
.Liret_pti_frame:
	POP_REGS keep_rdi=1
	SWITCH_TO_USER_CR3 scratch_reg=%rdi
	popq	%rdi
	swapgs
	addq	$(TF_RIP - TF_VECTOR), %rsp
.Liret_pti:
	iretq

.Lexit_work_pti:
	leaq	FRAME_PAGE_GAP(%rsp), %rdi
	call	exit_to_user_work
	testb	$SEL_TI_LDT, (FRAME_PAGE_GAP + TF_SS)(%rsp)
	jz	.Lexit_ready_pti
	BACK_TO_FRAME
	jmp	espfix_iret

/*
 * User RIPs and the two ways back.
 * SYSRET takes RIP from RCX, and on Intel a non-canonical RCX makes it raise
 * #GP in ring 0 with the user RSP and GS already loaded: no exit may SYSRET
 * with one.  Not every writer of a frame's RIP keeps it canonical:
 * rt_sigreturn, ptrace (POKEUSER, SETREGS) and a signal handler's address
 * take any value, as on Linux.  What holds instead:
 *   - the SYSCALL fast path (entry_syscall.S: no TF, no pending work before
 *     or after, the handler called straight from syscall_table) SYSRETs
 *     with the RCX the SYSCALL instruction wrote: the address
 *     after an instruction fetched in user mode, so canonical (user
 *     mappings end below TASK_SIZE_MAX, the last lower-half page is never
 *     mapped, so it is at most TASK_SIZE_MAX; or it is in the vsyscall page
 *     at the top).  Nothing rewrites that frame without taking the slow
 *     path: rt_sigreturn, execve and ptrace set TASK_WORK_FRAME, signal
 *     delivery and syscall restarts run in exit_to_user_work(), which only
 *     a non-zero current->work reaches;
 *   - the slow path (sysret_allowed(), sys/syscall.c) SYSRETs only with
 *     RCX == RIP < TASK_SIZE_MAX, and exit_sysret (exit_sysret.S, after
 *     exceptions and interrupts) only with RIP < TASK_SIZE_MAX (RCX is then
 *     the vDSO trampoline's address);
 *   - every other return IRETs: exit_fast's, exit_fast_pti's,
 *     exit_to_user's and exit_to_user_pti's own IRETs (the default) or return_to_user_iret's (the SYSCALL path's
 *     fallback, the first entry of a process, the IRET trampoline).  IRET
 *     refuses a non-canonical RIP (and a CS or SS it cannot load) with a
 *     fault at the IRET itself, in ring 0 but with the user's registers, GS
 *     and, after a PTI switch, CR3: trap_kernel below recognises the five
 *     IRET instructions and bad_iret.c turns the fault into the user's
 *     (SIGSEGV, SIGBUS); the sixth, espfix_iret's, runs on a read-only
 *     stack, so its fault is a #DF, which bad_iret.c turns into a user
 *     #GP(0) (espfix_df_fixup()).
 *
 * return_to_user_iret: IRET to user mode, never SYSRET.
 * In:  RSP -> struct trap_frame of a user context at the task stack top;
 *      current->work done; kernel GS and CR3; IF = 0.
 * Out: every register from the frame, user GS; with EF_PTI the user CR3.
 *   an LDT SS (SS & SEL_TI_LDT), in any variant: espfix_iret (espfix.S);
 *   neither PTI nor trampoline: exit_to_user's IRET, from the task stack;
 *   EF_PTI alone: exit_to_user_pti's IRET, from the frame page;
 *   EF_IRET_TRAMPOLINE: the IRET frame and the user RDI are copied to the
 *   entry stack and the IRET runs there (with EF_PTI after the switch to
 *   the user CR3); RDI is the CR3 scratch.
 */
	.globl return_to_user_iret
return_to_user_iret:
	testb	$SEL_TI_LDT, TF_SS(%rsp)
	jnz	espfix_iret
	testb	$(EF_PTI | EF_IRET_TRAMPOLINE), %gs:PERCPU_ENTRY_FLAGS
	jz	.Liret_plain
	testb	$EF_IRET_TRAMPOLINE, %gs:PERCPU_ENTRY_FLAGS
	jz	.Liret_pti_frame
	POP_REGS keep_rdi=1
	.globl iret_tramp_copy
/*
 * iret_tramp_copy: the copy to the entry stack and the IRET there.
 * In:  RSP -> the frame's RDI slot (the user RDI, then vector, error code,
 *      hardware frame); every other register already the user's; kernel GS
 *      and CR3; IF = 0.  exit_sysret_fast(_pti) jumps here straight after
 *      popping only the caller-saved registers of a fast entry's frame.
 * Out: IRET from the entry stack (with EF_PTI after the user CR3 switch).
 */
iret_tramp_copy:
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
 * trap_kernel: every entry from kernel mode (the stubs, the fast entries).
 * One kind is not the kernel's own: an IRET above refused the user frame
 * (#GP, #NP, #SS: a selector it cannot load, a non-canonical RIP; bad_iret.c).
 * In:  RSP -> vector, error code, hardware frame (CS.RPL = 0) on the stack
 *      the fault interrupted.  At the five IRETs every register, GS and,
 *      after a PTI switch, CR3 are already the user's.
 * Out: any other fault: a frame on the kernel stack, trap_dispatch(), back
 *      through restore_regs_and_iret.  A refused IRET: kernel GS, the
 *      registers saved as a frame on the stack the IRET ran on (the frame
 *      page or the entry stack, both user-mapped, so before the CR3
 *      switch), kernel CR3; bad_iret_frame() (on the C stack) turns it into
 *      the user frame at the top of the task stack (RAX), and the fault is
 *      dispatched from there as a user fault (.Luser_trap).
 */
	.globl trap_kernel
trap_kernel:
	cmpq	$.Liret_direct, HW_RIP(%rsp)
	je	.Lbad_iret
	cmpq	$.Liret_pti, HW_RIP(%rsp)
	je	.Lbad_iret
	cmpq	$.Liret_tramp, HW_RIP(%rsp)
	je	.Lbad_iret
	cmpq	$.Liret_fast, HW_RIP(%rsp)
	je	.Lbad_iret
	cmpq	$.Liret_fast_pti, HW_RIP(%rsp)
	je	.Lbad_iret
	SAVE_REGS
	movq	%rsp, %rdi
	call	trap_dispatch
	jmp	restore_regs_and_iret

.Lbad_iret:
	swapgs
	SAVE_REGS
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rax
1:	movq	%rsp, %rdi
	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	subq	$FRAME_PAGE_SIZE, %rsp
	call	bad_iret_frame
	movq	%rax, %rsp
	jmp	.Luser_trap

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
 *      CR3; the frame moves to the task stack top (the frame page, mapped
 *      in the user page tables too, so before the CR3 switch), so that the
 *      SIGTRAP it raises can be delivered, stop for a tracer and switch
 *      tasks like any other user exception: .Luser_trap.  RDI is parked in
 *      percpu.scratch while it points at the IST frame.
 */
	.p2align 4
debug_entry:
	testb	$3, HW_CS(%rsp)
	jz	paranoid_entry
	swapgs
	movq	%rdi, %gs:PERCPU_SCRATCH
	movq	%rsp, %rdi
	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	pushq	HW_SS(%rdi)
	pushq	HW_RSP(%rdi)
	pushq	HW_RFLAGS(%rdi)
	pushq	HW_CS(%rdi)
	pushq	HW_RIP(%rdi)
	pushq	HW_ERROR(%rdi)
	pushq	HW_VECTOR(%rdi)
	movq	%gs:PERCPU_SCRATCH, %rdi
	SAVE_REGS
	jmp	.Luser_trap

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
