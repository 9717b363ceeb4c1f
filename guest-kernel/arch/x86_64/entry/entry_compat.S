/*
 * The compat (i386 ABI) syscall entries, as Linux's entry_64_compat.S has
 * them: int $0x80 (this commit), and compat SYSCALL and SYSENTER.  In
 * .entry.text with the other entries (page-table isolation maps it).  The C
 * half and the table: sys/syscall32.c, sys/syscall_table32.c; the numbers:
 * include/entrylab/syscall_nr32.h.
 *
 * Register contract (Linux i386 syscall ABI):
 *   In:  EAX = number; EBX, ECX, EDX, ESI, EDI, EBP = arguments 1-6.
 *   Out: EAX (RAX) = result or -errno, sign-extended to 64 bits; every
 *        other register the user's, all 64 bits of RBX-RDI and of R8-R15
 *        included (Linux preserves R8-R11 across int $0x80 since 4.17;
 *        ptrace_syscall's "Check int80 return regs" checks it), RFLAGS and
 *        RSP too.
 *
 * The frame: struct trap_frame at the top of the task stack, every register
 * saved (there is no fast path: these are not the hot path), vector =
 * TF_VECTOR_SYSCALL32 (trapframe.h), error = the number, EAX zero-extended
 * (Linux's orig_ax); RAX is -ENOSYS while the call runs (sys/syscall32.c).
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"

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

	.section .note.GNU-stack, "", @progbits
