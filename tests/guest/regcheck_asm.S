/*
 * regcheck's assembler half: load every general register and RFLAGS with
 * known values, let one event happen (syscall, page fault, interrupt window,
 * call), store everything back.  No register is needed as a base: all state
 * lives in el_rc[] and is reached RIP-relative, and the event is reached by
 * an indirect jump through memory, so nothing but the event itself runs
 * between the load and the store.  regcheck.c compares.
 */
#include "regcheck.h"

#define W(i) el_rc + 8 * (i)(%rip)
#define RC_TARGET 39 /* the event's address, set by the dispatch */

	.bss
	.balign 64
	.globl el_rc
el_rc:
	.skip 8 * RC_WORDS

	.section .rodata
	.balign 4
events:
	.long ev_syscall - events
	.long ev_read_fault - events
	.long ev_write_fault - events
	.long ev_spin_loop - events
	.long ev_spin_dec - events
	.long ev_self_ipi - events
	.long ev_call - events

	.text
	.globl el_rc_run
	.type el_rc_run, @function
el_rc_run:
	push %rbp
	push %rbx
	push %r12
	push %r13
	push %r14
	push %r15
	pushfq			/* the caller's flags (DF clear); RSP is now 16-byte aligned */
	mov %rsp, W(RC_SAVED_RSP)
	cmp $RC_EV_COUNT, %rdi
	jae done
	lea events(%rip), %rax
	movslq (%rax, %rdi, 4), %rdx
	add %rdx, %rax
	mov %rax, W(RC_TARGET)

	/* RFLAGS first: PUSHFQ/POPFQ use the slot below RSP, the red zone comes next. */
	pushq W(RC_IN_FLAGS)
	popfq
	pushfq
	popq W(RC_FLAGS_AT)
	/* From here on only MOVs and the event: RFLAGS stays as loaded. */
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	mov W(RC_REDZONE_IN + \i), %rax
	mov %rax, -128 + 8 * \i(%rsp)
	.endr
	mov %rsp, W(RC_RSP_IN)
	mov W(RC_IN + RC_RAX), %rax
	mov W(RC_IN + RC_RBX), %rbx
	mov W(RC_IN + RC_RCX), %rcx
	mov W(RC_IN + RC_RDX), %rdx
	mov W(RC_IN + RC_RSI), %rsi
	mov W(RC_IN + RC_RDI), %rdi
	mov W(RC_IN + RC_RBP), %rbp
	mov W(RC_IN + RC_R8), %r8
	mov W(RC_IN + RC_R9), %r9
	mov W(RC_IN + RC_R10), %r10
	mov W(RC_IN + RC_R11), %r11
	mov W(RC_IN + RC_R12), %r12
	mov W(RC_IN + RC_R13), %r13
	mov W(RC_IN + RC_R14), %r14
	mov W(RC_IN + RC_R15), %r15
	jmp *W(RC_TARGET)

ev_syscall:
	syscall
	.globl el_rc_after_syscall
el_rc_after_syscall:
	jmp store

ev_read_fault:
	movq (%r15), %xmm0
	jmp store

ev_write_fault:
	movq %r14, (%r15)
	jmp store

ev_spin_loop:
1:	loop 1b
	jmp store

ev_spin_dec:
1:	dec %rax
	jnz 1b
	jmp store

ev_self_ipi:
	syscall
	.globl el_rc_after_ipi
el_rc_after_ipi:
	mov %rax, W(RC_RET)
	mov W(RC_SPIN), %rax
1:	dec %rax
	jnz 1b
	jmp store

ev_call:
	call *%rax
	jmp store

store:
	mov %rax, W(RC_OUT + RC_RAX)
	mov %rbx, W(RC_OUT + RC_RBX)
	mov %rcx, W(RC_OUT + RC_RCX)
	mov %rdx, W(RC_OUT + RC_RDX)
	mov %rsi, W(RC_OUT + RC_RSI)
	mov %rdi, W(RC_OUT + RC_RDI)
	mov %rbp, W(RC_OUT + RC_RBP)
	mov %r8, W(RC_OUT + RC_R8)
	mov %r9, W(RC_OUT + RC_R9)
	mov %r10, W(RC_OUT + RC_R10)
	mov %r11, W(RC_OUT + RC_R11)
	mov %r12, W(RC_OUT + RC_R12)
	mov %r13, W(RC_OUT + RC_R13)
	mov %r14, W(RC_OUT + RC_R14)
	mov %r15, W(RC_OUT + RC_R15)
	mov %rsp, W(RC_RSP_OUT)
	movq %xmm0, W(RC_XMM0)
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	mov -128 + 8 * \i(%rsp), %rax
	mov %rax, W(RC_REDZONE_OUT + \i)
	.endr
	pushfq
	popq W(RC_OUT_FLAGS)

done:
	mov W(RC_SAVED_RSP), %rsp
	popfq
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbx
	pop %rbp
	ret
	.size el_rc_run, . - el_rc_run

	.section .note.GNU-stack, "", @progbits
