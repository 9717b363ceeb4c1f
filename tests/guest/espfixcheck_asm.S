/*
 * espfixcheck's code outside 64-bit mode (espfixcheck.c), entered only by
 * rt_sigreturn with the context the SIGUSR1 handler wrote.  Neither touches
 * the stack: its SS is a 16-bit LDT segment and its RSP the requested value.
 *
 * ef_code32 (a flat 32-bit LDT code segment): with EBX != 0, DS := USER_DS and one load
 * from EBX (a page never touched: a #PF the kernel resolves and returns
 * from), then EDX turns of a spin (time for timer interrupts), then int3.
 * ef_code16 (an LDT 16-bit code segment based here, IP 0): int3.
 */
	.text
	.code32
	.globl ef_code32
ef_code32:
	testl	%ebx, %ebx
	jz	1f
	movl	$0x2b, %ecx
	movl	%ecx, %ds
	movl	(%ebx), %ecx
1:	movl	%edx, %ecx
	jecxz	3f
2:	decl	%ecx
	jnz	2b
3:	int3
	.globl ef_code32_trap
ef_code32_trap:
	hlt

	.p2align 4
	.globl ef_code16
ef_code16:
	int3
	hlt
	.code64

	.section .note.GNU-stack, "", @progbits
