/*
 * SYSRET after exceptions and interrupts (entry.ret=sysret): the exit
 * variant exit_fast, exit_to_user and their PTI copies (entry.S) take when
 * EF_SYSRET is on, with its own SYSRET (the frame may lack the callee-saved
 * registers, which the SYSCALL path's sysret_to_user would pop).  The set-up, the boot-time patches and the statistics are in
 * exit_sysret.c; what goes on the user stack: vdso/vsysret.h.
 *
 * A frame qualifies when SYSRET plus the vDSO trampoline (vdso/vsysret.h)
 * restore exactly what IRET would:
 *   CS, SS     USER_CS and USER_DS: SYSRET loads those, nothing else;
 *   TF clear   SYSRET would restore it and trap after the trampoline's first
 *              instruction, not after the interrupted one;
 *   IF set     user mode always runs with IF=1 here (iopl(2) is emulated
 *              through the I/O bitmap, as Linux does: CLI/STI still fault):
 *              a clear IF is a frame we do not understand;
 *   RF         SYSRET cannot restore it (RFLAGS = R11 & 0x3c7fd7 | 2).  CPUs
 *              push RF=1 for every fault-class exception (KVM's event
 *              injection does the same; QEMU TCG does not), so requiring it
 *              clear would rule out page faults on hardware.  RF only
 *              suppresses an instruction breakpoint on the resumed
 *              instruction: it is dropped unless the running task has an
 *              execute breakpoint armed (ptrace, hw_breakpoint.c), which
 *              adds RF to the tested bits (exit_sysret_flags_mask), so its
 *              frames with RF take the IRET;
 *   RIP        below TASK_SIZE_MAX (so canonical): the trampoline's RET must
 *              fault, if at all, where IRET would have;
 *   RSP        room for the 24 bytes below the red zone (any alignment: CR0.AM
 *              is never set here, so neither the stores nor the trampoline's
 *              pops can raise #AC, and each store is fault-safe alone): the
 *              range [RSP - 152, RSP - 128) lies below TASK_SIZE_MAX, and
 *              RSP - 152 does not wrap (user_range_ok());
 *   the vDSO   mapped (vdso=on): the trampoline lives there;
 *   the stack  writable: the three stores are fault-safe (exception table);
 *              a fault falls back to IRET with nothing but the scratch below
 *              the red zone touched, which the ABI gives no guarantee for.
 * RCX, R11 and RIP come back through the stack; RSP through RET's immediate;
 * every other register and flag SYSRET and the trampoline leave alone.  The
 * price (Lutomirski's own caveat about his 2014 patch): user code that keeps
 * data more than 128 bytes below RSP, which the ABI allows nobody but which
 * only signal delivery would break otherwise, sees it overwritten.
 * AMD keeps SS's hidden attributes across SYSRET (Linux's
 * X86_BUG_SYSRET_SS_ATTRS): after an interrupt from user mode SS holds the
 * null selector, so SS is reloaded with KERNEL_DS first there, or 32-bit
 * code could find an unusable SS.
 *
 * Decided at boot, not tested here (exit_sysret_init() patches the marked
 * instructions into NOPs of their length where they do not apply): STAC and
 * CLAC around the user stores (SMAP), the SS reload (AMD, Hygon).  The
 * trampoline's address comes from per-CPU data: percpu.vdso_base (-> the
 * current mm's vdso_base, kept by thread.c: so munmap and mremap of the vDSO
 * need no hook; -> 0 without EF_SYSRET, so this is also the variant test)
 * plus the trampoline's offset in the image.  Statistics: one
 * increment for a SYSRET taken, one per fallback by reason.
 */
#include "arch/x86_64/entry/calling.h"
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/entry/frame_page.h"
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "vdso/vsysret.h"

/* TASK_SIZE_MAX (sys/uaccess_range.h, which is C only); checked in exit_sysret.c. */
#define XS_TASK_SIZE_MAX 0x00007ffffffff000

/* Marks the instructions between 1: and 2: for exit_sysret_init() to patch out unless `kind`. */
.macro XS_PATCH_SITE kind
	.pushsection .rodata.exit_sysret_patches, "a"
	.balign 8
	.quad	1b, 2b - 1b, \kind
	.popsection
.endm

/* A user store of src to off(dst): on a fault, resumes at `fault` (exception table). */
.macro XS_USER_STORE src, off, dst, fault
1:	movq	\src, \off(\dst)
	.pushsection .extable, "a"
	.balign 8
	.quad	1b, \fault
	.popsection
.endm

/*
 * EXIT_SYSRET name, off, partial, pti
 * name:  exit_sysret, exit_sysret_pti: after a complete frame (exit_to_user,
 *        exit_to_user_pti); exit_sysret_fast, exit_sysret_fast_pti: after a
 *        fast entry (exit_fast, exit_fast_pti), whose frame has only the
 *        caller-saved registers, RBX, RBP, R12-R15 being the user's in the
 *        registers still (partial=1: none of them is touched here).
 *        off: 0, RSP -> the frame; FRAME_PAGE_GAP (the PTI copies), RSP is
 *        the C stack's top below the frame page, so that a fault of the
 *        user stores runs its handler there.
 * In:    the user frame at off(%rsp), current->work done; kernel GS and
 *        CR3; IF = 0.  The caller-saved registers are scratch.
 * Out:   SYSRET-able: the user stack written, then SYSRET right here with
 *        RCX = the trampoline, R11 = the frame's RFLAGS, RSP = the lowered
 *        user RSP, every other register from the frame (or, partial, from
 *        itself); with pti the user CR3 (RDI the scratch, loaded last).
 *        Else, the frame unchanged (and completed when partial):
 *        return_to_user_iret with RSP -> the frame.  Reached too when only
 *        entry.irq_return=trampoline is on (percpu.vdso_base -> 0, EF_SYSRET
 *        clear): then the frame's registers are popped here (partial: only
 *        the caller-saved ones) and iret_tramp_copy (entry.S) IRETs from the
 *        entry stack, with no refusal counted and no frame completed.
 * Registers: RCX trampoline, R11 RFLAGS, R9 RIP,
 *        RDX the new user RSP, RAX and RDI the user's RCX and R11.
 */
.macro EXIT_SYSRET name, off, partial, pti
	.p2align 4
	.globl	\name
\name:
	movq	%gs:PERCPU_VDSO_BASE, %rcx
	movq	(%rcx), %rcx
	testq	%rcx, %rcx
	jz	.Lxs_no_vdso\@
	cmpq	$USER_CS, (TF_CS + \off)(%rsp)
	jne	.Lxs_segments\@
	cmpq	$USER_DS, (TF_SS + \off)(%rsp)
	jne	.Lxs_segments\@
	movq	(TF_RFLAGS + \off)(%rsp), %r11
	movl	%r11d, %eax
	andl	exit_sysret_flags_mask(%rip), %eax
	cmpl	$RFLAGS_IF, %eax
	jne	.Lxs_flags\@
	movq	(TF_RIP + \off)(%rsp), %r9
	cmpq	exit_sysret_rip_limit(%rip), %r9
	jae	.Lxs_rip\@
	movq	(TF_RSP + \off)(%rsp), %rdx
	/* nsp = RSP - 152 must not wrap and nsp + 24 <= TASK_SIZE_MAX: one unsigned compare. */
	subq	$(VSYSRET_REDZONE + VSYSRET_FRAME), %rdx
	cmpq	exit_sysret_nsp_limit(%rip), %rdx
	ja	.Lxs_stack\@
	addq	exit_sysret_tramp_offset(%rip), %rcx
	movq	(TF_RCX + \off)(%rsp), %rax
	movq	(TF_R11 + \off)(%rsp), %rdi
1:	stac
2:	XS_PATCH_SITE XS_PATCH_SMAP
	XS_USER_STORE %rax, 0, %rdx, .Lxs_fault\@
	XS_USER_STORE %rdi, 8, %rdx, .Lxs_fault\@
	XS_USER_STORE %r9, 16, %rdx, .Lxs_fault\@
1:	clac
2:	XS_PATCH_SITE XS_PATCH_SMAP
	movq	%rdx, (TF_RSP + \off)(%rsp)
	incq	(exit_sysret_count + 8 * XS_TAKEN)(%rip)
1:	movl	$KERNEL_DS, %eax
	movl	%eax, %ss
2:	XS_PATCH_SITE XS_PATCH_RELOAD_SS
	/* SYSRET: RCX and R11 are set; the rest from the frame, RSP last. */
	.if \partial == 0
	movq	(TF_R15 + \off)(%rsp), %r15
	movq	(TF_R14 + \off)(%rsp), %r14
	movq	(TF_R13 + \off)(%rsp), %r13
	movq	(TF_R12 + \off)(%rsp), %r12
	movq	(TF_RBP + \off)(%rsp), %rbp
	movq	(TF_RBX + \off)(%rsp), %rbx
	.endif
	movq	(TF_R10 + \off)(%rsp), %r10
	movq	(TF_R9 + \off)(%rsp), %r9
	movq	(TF_R8 + \off)(%rsp), %r8
	movq	(TF_RAX + \off)(%rsp), %rax
	movq	(TF_RDX + \off)(%rsp), %rdx
	movq	(TF_RSI + \off)(%rsp), %rsi
	.if \pti
	/* The frame page stays mapped after the switch: the last two loads work. */
	SWITCH_TO_USER_CR3 scratch_reg=%rdi
	.endif
	movq	(TF_RDI + \off)(%rsp), %rdi
	movq	(TF_RSP + \off)(%rsp), %rsp
	swapgs
	sysretq

.Lxs_fault\@:
1:	clac
2:	XS_PATCH_SITE XS_PATCH_SMAP
	movl	$XS_FAULT, %eax
	jmp	.Lxs_refuse\@
.Lxs_no_vdso\@:
	/* entry.irq_return=trampoline alone: no refusal to count, straight to its copy. */
	testb	$EF_SYSRET, %gs:PERCPU_ENTRY_FLAGS
	jz	.Lxs_tramp\@
	movl	$XS_NO_VDSO, %eax
	jmp	.Lxs_refuse\@
.Lxs_tramp\@:
	.if \partial
	leaq	(TF_R11 + \off)(%rsp), %rsp
	POP_REGS keep_rdi=1, caller_only=1
	.else
	.if \off
	leaq	\off(%rsp), %rsp
	.endif
	POP_REGS keep_rdi=1
	.endif
	jmp	iret_tramp_copy
.Lxs_segments\@:
	movl	$XS_SEGMENTS, %eax
	jmp	.Lxs_refuse\@
.Lxs_flags\@:
	movl	$XS_FLAGS, %eax
	jmp	.Lxs_refuse\@
.Lxs_rip\@:
	movl	$XS_RIP, %eax
	jmp	.Lxs_refuse\@
.Lxs_stack\@:
	movl	$XS_STACK, %eax
.Lxs_refuse\@:
	leaq	exit_sysret_count(%rip), %rcx
	incq	(%rcx, %rax, 8)
	.if \partial
	SAVE_REGS_CALLEE \off
	.endif
	.if \off
	leaq	\off(%rsp), %rsp
	.endif
	jmp	return_to_user_iret
.endm

	.section .rodata.exit_sysret_patches, "a"
	.balign 8
	.globl exit_sysret_patches
exit_sysret_patches:

	.section .entry.text, "ax"
	EXIT_SYSRET exit_sysret, off=0, partial=0, pti=0
	EXIT_SYSRET exit_sysret_pti, off=FRAME_PAGE_GAP, partial=0, pti=1
	EXIT_SYSRET exit_sysret_fast, off=0, partial=1, pti=0
	EXIT_SYSRET exit_sysret_fast_pti, off=FRAME_PAGE_GAP, partial=1, pti=1

	.section .rodata.exit_sysret_patches, "a"
	.globl exit_sysret_patches_end
exit_sysret_patches_end:

/*
 * The RFLAGS bits that must read IF alone for SYSRET: TF and IF, and RF too
 * while the running task has an execute breakpoint armed (hw_breakpoint.c).
 */
	.data
	.balign 4
	.globl exit_sysret_flags_mask
exit_sysret_flags_mask:
	.long	RFLAGS_TF | RFLAGS_IF

/* The two limits as memory operands: TASK_SIZE_MAX does not fit an immediate. */
	.section .rodata
	.balign 8
exit_sysret_rip_limit:
	.quad	XS_TASK_SIZE_MAX
exit_sysret_nsp_limit:
	.quad	XS_TASK_SIZE_MAX - VSYSRET_FRAME

	.section .note.GNU-stack, "", @progbits
