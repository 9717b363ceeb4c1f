/*
 * The vDSO images, stripped (vdso.cmake builds them into the build
 * directory, which the assembler searches: -Wa,-I).  Each starts on a page
 * and is padded to a page, so mapping it shows user space nothing else.
 */
	.macro vdso_image tsc, clamp
	.section .rodata.vdso_images, "a"
	.balign 4096
	.globl vdso_image_\tsc\()_\clamp
vdso_image_\tsc\()_\clamp:
	.incbin "vdso-\tsc-\clamp\().so"
	.balign 4096, 0
	.globl vdso_image_\tsc\()_\clamp\()_end
vdso_image_\tsc\()_\clamp\()_end:
	.endm

	vdso_image lfence, branch
	vdso_image lfence, cmov
	vdso_image lfence2, branch
	vdso_image lfence2, cmov
	vdso_image rdtscp, branch
	vdso_image rdtscp, cmov
	vdso_image none, branch
	vdso_image none, cmov

	.section .note.GNU-stack, "", @progbits
