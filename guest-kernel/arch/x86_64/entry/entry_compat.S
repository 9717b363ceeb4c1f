/*
 * The compat (i386 ABI) syscall entries, as Linux's entry_64_compat.S has
 * them: int $0x80, compat SYSCALL and SYSENTER.  In
 * .entry.text with the other entries (page-table isolation maps it).  The C
 * half and the table: sys/syscall32.c, sys/syscall_table32.c; the numbers:
 * include/entrylab/syscall_nr32.h.
 *
 * Register contract (Linux i386 syscall ABI):
 *   In:  EAX = number; EBX, ECX, EDX, ESI, EDI, EBP = arguments 1-6.
 *   Out (int $0x80; the fast entries: below): EAX (RAX) = result or -errno,
 *        sign-extended to 64 bits; every other register the user's, all
 *        64 bits of RBX-RDI and of R8-R15 included (Linux preserves R8-R11
 *        across int $0x80 since 4.17; ptrace_syscall's "Check int80 return
 *        regs" checks it), RFLAGS and RSP too.
 *
 * The frame: struct trap_frame at the top of the task stack, every register
 * saved (there is no fast path: these are not the hot path), vector =
 * TF_VECTOR_SYSCALL32 (trapframe.h), error = the number, EAX zero-extended
 * (Linux's orig_ax); RAX is -ENOSYS while the call runs (sys/syscall32.c).
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"

	.section .entry.text, "ax"

/*
 * entry_INT80_compat: IDT vector 0x80, an interrupt gate of DPL 3 (idt.c),
 * so int $0x80 works from every user code segment: USER32_CS, USER_CS, an
 * LDT code segment.  Linux calls the compat table whatever the CS.
 * In:  the CPU's frame (no error code) on TSS.RSP0 = the task stack top
 *      (the frame page under PTI); user GS and CR3; IF = 0.  From kernel
 *      mode (never done on purpose): trap_kernel, which reports it.
 * Out: exit_to_user / exit_to_user_pti (entry.S): IRET, or with
 *      entry.ret=sysret a SYSRET through the vDSO trampoline for frames it
 *      accepts (64-bit CS only: a compat CS is refused, "segments"), with
 *      entry.irq_return=trampoline the IRET from the entry stack.  Every
 *      register is restored from the frame, RAX the result.
 * Clobbers: nothing of the user's but RAX.
 */
	.p2align 4
	.globl entry_INT80_compat
entry_INT80_compat:
	movl	%eax, %eax		/* orig_ax: the number is EAX, zero-extended */
	pushq	%rax
	pushq	$TF_VECTOR_SYSCALL32
	testb	$3, HW_CS(%rsp)
	jz	trap_kernel
	swapgs
	SAVE_REGS
	incq	%gs:PERCPU_NR_SYSCALLS	/* the "syscalls" counter: every ABI */
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rax
1:	movq	%rsp, %rdi
	BELOW_FRAME_PAGE
	call	do_int80_syscall
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_to_user_pti
	BACK_TO_FRAME
	jmp	exit_to_user

/*
 * The fast entries: compat SYSCALL (MSR_CSTAR; AMD and Hygon: Intel CPUs
 * raise #UD for SYSCALL in compatibility mode) and SYSENTER (MSR_SYSENTER_*;
 * Intel, Centaur, Zhaoxin: AMD CPUs raise #UD for it in long mode).
 * syscall_init.c programs only what the vendor has.  Both are made for
 * __kernel_vsyscall in the vdso32 page (vdso/vdso32.h), which pushed ECX,
 * EDX and EBP, and then, as Linux's do_fast_syscall_32():
 *   - the sixth argument is the EBP it pushed, read from the user stack at
 *     ESP (a fault: -EFAULT, and the IRET path);
 *   - they return to the vdso32's int80_landing_pad (pop EBP, EDX, ECX;
 *     RET), whatever RIP the instruction came from: SYSENTER keeps none,
 *     and a restart must find the int $0x80 2 bytes before;
 *   - the return is SYSRETL (on Intel too: SYSRET to compatibility mode
 *     works on every x86-64 CPU, SYSEXIT is never needed) when the frame is
 *     still USER32_CS/USER_DS at the landing pad without TF or RF, else
 *     exit_to_user(_pti): IRET (entry.ret=sysret refuses compat frames;
 *     entry.irq_return=trampoline IRETs from the entry stack).
 * Registers, as the user sees them back in __kernel_vsyscall's caller: EAX
 * the result, every other one the user's (ECX, EDX and EBP through the
 * landing pad's pops).  After SYSRETL itself: ECX = the landing pad, R11 =
 * EFLAGS, R8-R10 zeroed (as Linux), R12-R15 the user's; after the IRET path
 * R8-R15 the user's (Linux 4.x-5.x cleared them in the frame): compat code
 * cannot see them either way.
 *
 * The frame, as int $0x80's: vector TF_VECTOR_SYSCALL32, error = EAX
 * zero-extended, CS = USER32_CS, SS = USER_DS, RSP = ESP zero-extended
 * (SYSENTER: the EBP __kernel_vsyscall loaded from ESP), RCX = the second
 * argument (SYSCALL overwrote ECX, so __kernel_vsyscall moved it to EBP;
 * SYSENTER leaves ECX alone), RIP and EBP set in C.
 *
 * COMPAT_FAST_TAIL: after the frame is built (RSP -> its vector slot, user
 * GS and CR3 still): kernel GS was loaded by the caller; switches CR3
 * (PTI: RAX is saved already), calls do_fast_syscall_32() below the frame
 * page and leaves by SYSRETL or exit_to_user(_pti).
 */
.macro COMPAT_FAST_TAIL
	SAVE_REGS
	incq	%gs:PERCPU_NR_SYSCALLS
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rax
1:	movq	%rsp, %rdi
	BELOW_FRAME_PAGE
	call	do_fast_syscall_32
	testl	%eax, %eax
	jnz	sysretl_to_user
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jnz	exit_to_user_pti
	BACK_TO_FRAME
	jmp	exit_to_user
.endm

/*
 * entry_SYSCALL_compat (MSR_CSTAR)
 * In:  ECX = the return EIP, R11 = EFLAGS, as SYSCALL left them; EAX the
 *      number, EBX EBP(= the user ECX) EDX ESI EDI the arguments, the
 *      sixth at (ESP); RFLAGS masked by SFMASK (IF, TF, AC clear); user GS
 *      and CR3.
 * Out: the contract above.  The user RSP is parked in percpu.user_rsp
 *      (RSP is the CR3 scratch, as on the 64-bit path).
 */
	.p2align 4
	.globl entry_SYSCALL_compat
entry_SYSCALL_compat:
	swapgs
	movq	%rsp, %gs:PERCPU_USER_RSP
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rsp
1:	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	pushq	$USER_DS		/* SS */
	pushq	%gs:PERCPU_USER_RSP	/* RSP: ESP, zero-extended below */
	movl	$0, 4(%rsp)
	pushq	%r11			/* RFLAGS */
	pushq	$USER32_CS		/* CS */
	pushq	%rcx			/* RIP: replaced by the landing pad */
	movl	%eax, %eax
	pushq	%rax			/* error: orig_ax */
	pushq	$TF_VECTOR_SYSCALL32
	movq	%rbp, %rcx		/* SAVE_REGS then stores the right RCX */
	COMPAT_FAST_TAIL

/*
 * entry_SYSENTER_compat (MSR_SYSENTER_EIP; CS = KERNEL_CS, RSP = the entry
 * stack top, user-mapped under PTI: the user RFLAGS goes there first, before
 * any instruction changes them, then to percpu.scratch until the frame)
 * In:  EAX the number, EBX ECX EDX ESI EDI the arguments, EBP = the user
 *      ESP (the sixth argument at (EBP)); RFLAGS as the user had them but
 *      IF and RF (TF stays: a step trap lands on the first instruction here,
 *      debug.c drops it); user GS and CR3; no return address anywhere.
 * Out: the contract above.  RFLAGS is saved as found, IF set (user mode
 *      always runs with it), then cleared of everything the kernel must not
 *      run with (AC above all: it would void SMAP).
 */
	.p2align 4
	.globl entry_SYSENTER_compat
entry_SYSENTER_compat:
	pushfq				/* the user's RFLAGS before any test: on the entry stack */
	swapgs
	popq	%gs:PERCPU_SCRATCH
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	SWITCH_TO_KERNEL_CR3 scratch_reg=%rsp
1:	movq	%gs:PERCPU_TOP_OF_STACK, %rsp
	pushq	$USER_DS		/* SS */
	pushq	%rbp			/* RSP: the user ESP, zero-extended below */
	movl	$0, 4(%rsp)
	pushq	%gs:PERCPU_SCRATCH	/* RFLAGS */
	orl	$RFLAGS_IF, (%rsp)
	pushq	$2
	popfq
	pushq	$USER32_CS		/* CS */
	pushq	$0			/* RIP: the landing pad, in C */
	movl	%eax, %eax
	pushq	%rax			/* error: orig_ax */
	pushq	$TF_VECTOR_SYSCALL32
	COMPAT_FAST_TAIL

/*
 * sysretl_to_user: the fast entries' SYSRETL.
 * In:  RSP = the C stack top (BELOW_FRAME_PAGE), the frame above it checked
 *      by do_fast_syscall_32() (USER32_CS, USER_DS, RIP = the landing pad,
 *      no TF or RF); kernel GS and CR3; IF = 0.
 * Out: every register from the frame but R8-R10 (zeroed, as Linux does),
 *      then RCX = RIP, R11 = RFLAGS, RSP = the frame's; user CR3 (PTI: RSP the scratch, parked in
 *      percpu.user_rsp), user GS; SYSRETL to USER32_CS (STAR).
 */
sysretl_to_user:
	BACK_TO_FRAME
	POP_REGS
	xorl	%r8d, %r8d		/* as Linux: R8-R10 zeroed, R11 = EFLAGS */
	xorl	%r9d, %r9d
	xorl	%r10d, %r10d
	movq	(TF_RIP - TF_VECTOR)(%rsp), %rcx
	movq	(TF_RFLAGS - TF_VECTOR)(%rsp), %r11
	movq	(TF_RSP - TF_VECTOR)(%rsp), %rsp
	testb	$EF_PTI, %gs:PERCPU_ENTRY_FLAGS
	jz	1f
	movq	%rsp, %gs:PERCPU_USER_RSP
	SWITCH_TO_USER_CR3 scratch_reg=%rsp
	movq	%gs:PERCPU_USER_RSP, %rsp
1:	swapgs
	sysretl

	.section .note.GNU-stack, "", @progbits
