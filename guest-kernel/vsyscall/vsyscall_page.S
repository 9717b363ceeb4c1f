/*
 * The legacy vsyscall page, as pre-2018 Linux mapped it in `native` mode:
 * three entry points 1 KiB apart that make the real syscall, the rest int3.
 * Mapped at 0xffffffffff600000 user-executable (vsyscall.c); in the kernel's
 * own view it is just read-only data.
 */
#include "entrylab/syscall_nr.h"

	.section .rodata.vsyscall_page, "a"
	.balign 4096
	.globl vsyscall_page
vsyscall_page:
	/* 0xffffffffff600000: gettimeofday(tv, tz) */
	movq	$EL_NR_gettimeofday, %rax
	syscall
	ret

	.balign 1024, 0xcc
	/* 0xffffffffff600400: time(tloc) */
	movq	$EL_NR_time, %rax
	syscall
	ret

	.balign 1024, 0xcc
	/* 0xffffffffff600800: getcpu(cpu, node, cache) */
	movq	$EL_NR_getcpu, %rax
	syscall
	ret

	.balign 4096, 0xcc
	.globl vsyscall_page_end
vsyscall_page_end:

	.section .note.GNU-stack, "", @progbits
