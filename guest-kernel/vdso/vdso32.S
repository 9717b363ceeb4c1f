/*
 * The vdso32 page (vdso32.h): one page of 32-bit code in the kernel's
 * rodata, mapped read+exec into processes that ask.  The offsets are
 * vdso32.h's, checked here at assembly time.
 */
#include "vdso/vdso32.h"

	.section .rodata.vdso32, "a"
	.balign 4096
	.globl vdso32_page
vdso32_page:
	.code32
__kernel_vsyscall:
	pushl	%ecx
	pushl	%edx
	pushl	%ebp
.Lseq:
	/* "movl %esp, %ebp; sysenter" or "movl %ecx, %ebp; syscall": vdso32_init() */
	.byte	0x0f, 0x1f, 0x40, 0x00	/* nopl 0(%eax) */
.Lint80:
	int	$0x80
.Llanding:
	popl	%ebp
	popl	%edx
	popl	%ecx
	ret
	.code64
	.if (__kernel_vsyscall - vdso32_page) != VDSO32_VSYSCALL
	.error "VDSO32_VSYSCALL"
	.endif
	.if (.Lseq - vdso32_page) != VDSO32_SEQ
	.error "VDSO32_SEQ"
	.endif
	.if (.Lint80 - vdso32_page) != VDSO32_INT80
	.error "VDSO32_INT80"
	.endif
	.if (.Llanding - vdso32_page) != VDSO32_LANDING_PAD
	.error "VDSO32_LANDING_PAD"
	.endif
	.balign 4096, 0xcc
	.globl vdso32_page_end
vdso32_page_end:

	.section .note.GNU-stack, "", @progbits
