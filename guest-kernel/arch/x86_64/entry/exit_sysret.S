/*
 * SYSRET after exceptions and interrupts (entry.ret=sysret): the exit
 * variant exit_to_user and exit_to_user_pti (entry.S) take when EF_SYSRET
 * is on.  The set-up, the boot-time patches and the statistics are in
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
 *              instruction, and this kernel never arms one (DR7 is never
 *              written: ptrace accepts only zeroes for it): it is dropped
 *              without a trace;
 *   RIP        below TASK_SIZE_MAX (so canonical): the trampoline's RET must
 *              fault, if at all, where IRET would have;
 *   RSP        8-byte aligned (CR0.AM is clear, but the pops should not depend
 *              on it) and room for the 24 bytes below the red zone: the
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
 * need no hook) plus the trampoline's offset in the image.  Statistics: one
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
 * EXIT_SYSRET name, off, sysret
 * name:  exit_sysret (off = 0: RSP -> the frame) or exit_sysret_pti
 *        (off = FRAME_PAGE_GAP: RSP is the C stack's top below the frame
 *        page, so that a fault of the user stores runs its handler there).
 * In:    a user frame at off(%rsp) whose current->work is done; kernel GS
 *        and CR3; IF = 0.  Every register is scratch (all are in the frame).
 * Out:   SYSRET-able (user stack written, frame RCX = the trampoline,
 *        R11 = RFLAGS, RSP lowered): jumps to `sysret` (entry_syscall.S)
 *        with RSP -> the frame; else return_to_user_iret with RSP -> the
 *        frame, the frame unchanged.
 * Registers: RCX trampoline, R11 RFLAGS, R8 TASK_SIZE_MAX, R9 RIP,
 *        RDX the new user RSP, RAX and RDI the user's RCX and R11.
 */
.macro EXIT_SYSRET name, off, sysret
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
	andl	$(RFLAGS_TF | RFLAGS_IF), %eax
	cmpl	$RFLAGS_IF, %eax
	jne	.Lxs_flags\@
	movabsq	$XS_TASK_SIZE_MAX, %r8
	movq	(TF_RIP + \off)(%rsp), %r9
	cmpq	%r8, %r9
	jae	.Lxs_rip\@
	movq	(TF_RSP + \off)(%rsp), %rdx
	testb	$7, %dl
	jnz	.Lxs_stack\@
	/* nsp = RSP - 152 must not wrap and nsp + 24 <= TASK_SIZE_MAX: one unsigned compare. */
	subq	$(VSYSRET_REDZONE + VSYSRET_FRAME), %rdx
	subq	$VSYSRET_FRAME, %r8
	cmpq	%r8, %rdx
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
	movq	%rcx, (TF_RCX + \off)(%rsp)
	movq	%r11, (TF_R11 + \off)(%rsp)
	movq	%rdx, (TF_RSP + \off)(%rsp)
	incq	(exit_sysret_count + 8 * XS_TAKEN)(%rip)
1:	movl	$KERNEL_DS, %eax
	movl	%eax, %ss
2:	XS_PATCH_SITE XS_PATCH_RELOAD_SS
	.if \off
	leaq	\off(%rsp), %rsp
	.endif
	jmp	\sysret

.Lxs_fault\@:
1:	clac
2:	XS_PATCH_SITE XS_PATCH_SMAP
	movl	$XS_FAULT, %eax
	jmp	.Lxs_refuse\@
.Lxs_no_vdso\@:
	movl	$XS_NO_VDSO, %eax
	jmp	.Lxs_refuse\@
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
	EXIT_SYSRET exit_sysret, 0, sysret_to_user
	EXIT_SYSRET exit_sysret_pti, FRAME_PAGE_GAP, sysret_to_user_pti

	.section .rodata.exit_sysret_patches, "a"
	.globl exit_sysret_patches_end
exit_sysret_patches_end:

	.section .note.GNU-stack, "", @progbits
