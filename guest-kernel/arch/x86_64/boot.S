/*
 * PVH entry: from 32-bit protected mode without paging to kmain() in the
 * higher half.
 *
 * Boot page tables (all 2 MiB pages, one set of page directories for the
 * first 4 GiB shared by three views):
 *   identity        0 .. 4 GiB      only for the jump to the higher half
 *   direct map      DIRECT_MAP_BASE + 0 .. 4 GiB
 *   kernel image    KERNEL_VBASE + 0 .. 2 GiB
 * kmain() replaces them with the kernel's own tables (mm/paging.c), which
 * leave the user half empty.
 */
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "mm/layout.h"
#include "mm/pgtable.h"

#define PHYS(x) ((x) - KERNEL_VBASE)
#define BOOT_STACK_SIZE 16384
#define BOOT_PDS 4 /* page directories: 4 x 1 GiB = BOOT_MAP_SIZE */
#define PML4_DIRECT ((DIRECT_MAP_BASE >> PML4_SHIFT) & 511)
#define PDPT_KERNEL ((KERNEL_VBASE >> PDPT_SHIFT) & 511)

	.section .boot.text, "ax"
	.code32
	.globl pvh_start32
/*
 * pvh_start32
 * In:  EBX = physical address of struct pvh_start_info; CR0.PE = 1, paging
 *      off; CS flat 32-bit code, DS/ES flat data; IF = 0; no usable stack.
 * Out: does not return; enters start64 in long mode with EBX preserved.
 * Clobbers every other register; zeroes .bss (which holds the boot tables).
 */
pvh_start32:
	cli
	cld
	lgdt	boot_gdt_ptr
	ljmp	$KERNEL32_CS, $1f
1:	movl	$KERNEL_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs

	/* .bss is zero by ELF rules; do not trust every loader to have done it. */
	movl	$PHYS(__bss_start), %edi
	movl	$PHYS(__bss_end), %ecx
	subl	%edi, %ecx
	shrl	$2, %ecx
	xorl	%eax, %eax
	rep stosl

	/* Page directories: 2048 large pages = the first 4 GiB, writable. */
	movl	$PHYS(boot_pd), %edi
	movl	$(PTE_P | PTE_W | PTE_PS), %eax
	movl	$(BOOT_PDS * 512), %ecx
2:	movl	%eax, (%edi)
	addl	$LARGE_PAGE_SIZE, %eax
	addl	$8, %edi
	loop	2b

	/* The same directories under the identity and direct-map PDPTs. */
	movl	$PHYS(boot_pd) + (PTE_P | PTE_W), %eax
	xorl	%ecx, %ecx
3:	movl	%eax, PHYS(boot_pdpt_low)(,%ecx,8)
	movl	%eax, PHYS(boot_pdpt_direct)(,%ecx,8)
	addl	$4096, %eax
	incl	%ecx
	cmpl	$BOOT_PDS, %ecx
	jne	3b
	/* The kernel image: KERNEL_VBASE + 0 .. 2 GiB -> physical 0 .. 2 GiB. */
	movl	$PHYS(boot_pd) + (PTE_P | PTE_W), PHYS(boot_pdpt_kernel) + PDPT_KERNEL * 8
	movl	$PHYS(boot_pd) + 4096 + (PTE_P | PTE_W), PHYS(boot_pdpt_kernel) + PDPT_KERNEL * 8 + 8

	movl	$PHYS(boot_pdpt_low) + (PTE_P | PTE_W), PHYS(boot_pml4)
	movl	$PHYS(boot_pdpt_direct) + (PTE_P | PTE_W), PHYS(boot_pml4) + PML4_DIRECT * 8
	movl	$PHYS(boot_pdpt_kernel) + (PTE_P | PTE_W), PHYS(boot_pml4) + 511 * 8

	/* Long mode: PAE, the tables, EFER.LME, then paging. */
	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$PHYS(boot_pml4), %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$EFER_LME, %eax
	wrmsr
	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_PE), %eax
	movl	%eax, %cr0
	ljmp	$KERNEL_CS, $start64_low

	.code64
/*
 * start64_low
 * In:  64-bit mode, running on the identity mapping; EBX = start_info phys.
 * Out: jumps to start64 in the higher half.  Clobbers RAX.
 */
start64_low:
	movabsq	$start64, %rax
	jmpq	*%rax

/*
 * Boot GDT, entries 1-3 as in the kernel's GDT (segment.h).  Accessed bits
 * are preset so the CPU never writes to it.
 */
	.section .boot.rodata, "a"
	.balign 8
boot_gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	/* KERNEL32_CS: 32-bit code, flat */
	.quad	0x00af9b000000ffff	/* KERNEL_CS: 64-bit code */
	.quad	0x00cf93000000ffff	/* KERNEL_DS: data, flat */
boot_gdt_end:
	.balign 8
boot_gdt_ptr:
	.word	boot_gdt_end - boot_gdt - 1
	.long	boot_gdt

	.text
/*
 * start64
 * In:  long mode on the boot tables, CS = KERNEL_CS, EBX = start_info phys.
 * Out: never returns; kmain(start_info phys) on the boot stack.
 */
start64:
	xorl	%eax, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
	movl	$KERNEL_DS, %eax
	movl	%eax, %ss
	movq	$boot_stack_top, %rsp
	xorl	%ebp, %ebp
	movl	%ebx, %edi
	call	kmain
4:	cli
	hlt
	jmp	4b

	.section .bss..page_aligned, "aw", @nobits
	.balign 4096
	.globl boot_pml4
boot_pml4:
	.skip	4096
boot_pdpt_low:
	.skip	4096
boot_pdpt_direct:
	.skip	4096
boot_pdpt_kernel:
	.skip	4096
boot_pd:
	.skip	4096 * BOOT_PDS
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip	BOOT_STACK_SIZE
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
