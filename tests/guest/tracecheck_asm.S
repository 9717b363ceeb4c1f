/*
 * tracecheck's regions (tracecheck.h has the counts they must give).  r8
 * keeps n across SYSCALL, which clobbers rcx and r11.
 */
#include "tracecheck.h"

/*
 * The marker SYSCALL and its site record (include/entrylab/linux_init.h
 * struct el_region_site, as guest/lib/region.h lists them): a program whose
 * ELF lists sites is traced as marked, not whole, and the sites are Linux's
 * window.  The section is not loaded: no address moves.
 */
.macro marker op
99:	syscall
	.pushsection TC_REGION_SITES, "", @progbits
	.balign	8
	.quad	99b, \op
	.popsection
.endm

/* BEGIN with n as the region's iterations; the window opens after this SYSCALL. */
.macro region_begin
	movq	%rdi, %r8
	movl	$TC_SYS_REGION, %eax
	movl	$TC_REGION_BEGIN, %edi
	movq	%r8, %rsi
	marker	TC_REGION_BEGIN
.endm

/* END: three instructions, all inside the window. */
.macro region_end
	movl	$TC_SYS_REGION, %eax
	movl	$TC_REGION_END, %edi
	marker	TC_REGION_END
.endm

	.text
	.globl	tc_loop
	.type	tc_loop, @function
tc_loop:
	region_begin
	movq	%r8, %rdx		/* 1 */
1:	decq	%rdx			/* n */
	jnz	1b			/* n */
	region_end			/* 3 */
	ret
	.size	tc_loop, . - tc_loop

/* Its own page-aligned section, so that offset 4096 is a page boundary. */
	.section .text.tc_cross, "ax", @progbits
	.balign	4096
	.globl	tc_cross
	.type	tc_cross, @function
tc_cross:
	region_begin
	movq	%r8, %rdx		/* 1 */
	xorl	%ecx, %ecx		/* 1 */
	jmp	1f			/* 1 */
	/* A (3 bytes) ends 3 bytes before the boundary, B (7 bytes) crosses it. */
	.org	4096 - 3 - 3, 0xcc
1:	movq	%rdx, %rax		/* n: A, 48 89 d0 */
	addq	$0x1000, %rcx		/* n: B, 48 81 c1 00 10 00 00 */
	decq	%rdx			/* n */
	jnz	1b			/* n */
	region_end			/* 3 */
	ret
	.size	tc_cross, . - tc_cross
/*
 * tc_rewrite(code): code (writable and executable) holds "movl $1, %eax;
 * ret"; it is called, its immediate rewritten to 2, called again.
 */
	.text
	.globl	tc_rewrite
	.type	tc_rewrite, @function
tc_rewrite:
	movq	%rdi, %r9
	movl	$TC_SYS_REGION, %eax
	movl	$TC_REGION_BEGIN, %edi
	movl	$1, %esi
	marker	TC_REGION_BEGIN
	call	*%r9			/* 1 + 2 */
	movb	$2, 1(%r9)		/* 1 */
	call	*%r9			/* 1 + 2 */
	region_end			/* 3 */
	ret
	.size	tc_rewrite, . - tc_rewrite

	.section .note.GNU-stack, "", @progbits
