/*
 * Multiboot2 entry: the header GRUB looks for, and a 32-bit shim that turns
 * GRUB's boot information (MBI) into the struct pvh_start_info the PVH entry
 * takes, then enters pvh_start32 (boot.S) as a PVH loader would.  The ELF
 * entry stays pvh_start32; GRUB uses the header's entry-address tag.
 *
 * GRUB loads the PT_LOAD segments at their p_paddr (kernel.ld: from 1 MiB),
 * so no address tag is needed.  The shim's buffers live in .boot.data, part
 * of the image and outside .bss, which pvh_start32 clears.
 *
 * The loader is not trusted: the MBI must be 8-aligned, its total_size
 * bounded, every tag inside it and at least 8 bytes; lists are capped (the
 * count still says how many there were, bootinfo.c reports the cut), strings
 * are copied or used only when NUL-terminated inside their tag, an RSDP only
 * with its signature.  Anything else halts with a message on COM1.
 */
#include "boot/multiboot2.h"

#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define UART_TX_SPINS 100000

	.section .boot.header, "a"
	.balign 8
mb2_header:
	.long	MB2_HEADER_MAGIC
	.long	MB2_ARCH_I386
	.long	mb2_header_end - mb2_header
	.long	-(MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	/* Information request (required): GRUB knows every one of these types. */
	.balign 8
1:	.short	MB2_HTAG_INFO_REQUEST, 0
	.long	2f - 1b
	.long	MB2_TAG_CMDLINE, MB2_TAG_MODULE, MB2_TAG_MMAP
	.long	MB2_TAG_ACPI_OLD, MB2_TAG_ACPI_NEW
2:	.balign 8
	.short	MB2_HTAG_ENTRY_ADDRESS, 0
	.long	12
	.long	mb2_start32
	.balign 8
	.short	MB2_HTAG_END, 0
	.long	8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl mb2_start32
/*
 * mb2_start32
 * In:  EAX = MB2_LOADER_MAGIC, EBX = physical address of the MBI; CR0.PE = 1,
 *      paging off, CS flat 32-bit code, DS/ES/FS/GS/SS flat data, A20 on,
 *      IF = 0; ESP, GDTR and IDTR undefined.
 * Out: jumps to pvh_start32 with EBX = mb2_start_info, filled in; or halts
 *      with a message on COM1 when EAX or the MBI is unusable.
 * Clobbers every register; runs on mb2_stack.
 */
mb2_start32:
	cli
	cld
	movl	$mb2_stack_top, %esp
	movl	$msg_magic, %esi
	cmpl	$MB2_LOADER_MAGIC, %eax
	jne	mb2_fail

	/* 8-aligned, not null, header + end tag <= total_size <= MB2_MBI_MAX. */
	movl	$msg_mbi, %esi
	testl	%ebx, %ebx
	jz	mb2_fail
	testl	$7, %ebx
	jnz	mb2_fail
	movl	(%ebx), %ecx
	cmpl	$(MB2_MBI_HEADER_SIZE + MB2_TAG_HEADER_SIZE), %ecx
	jb	mb2_fail
	cmpl	$MB2_MBI_MAX, %ecx
	ja	mb2_fail
	movl	%ebx, %edx
	addl	%ecx, %edx
	jc	mb2_fail
	/* Room above the end, so stepping over a tag's padding cannot wrap. */
	cmpl	$0xfffffff0, %edx
	ja	mb2_fail
	leal	MB2_MBI_HEADER_SIZE(%ebx), %edi

/* The walk: EDI = this tag, EDX = end of the MBI; the handlers get ECX = its size. */
mb2_next_tag:
	movl	$msg_tag, %esi
	movl	%edx, %eax
	subl	%edi, %eax		/* bytes left; borrow: the last padding ran past the end */
	jb	mb2_fail
	cmpl	$MB2_TAG_HEADER_SIZE, %eax
	jb	mb2_fail
	movl	4(%edi), %ecx
	cmpl	$MB2_TAG_HEADER_SIZE, %ecx
	jb	mb2_fail
	cmpl	%eax, %ecx
	ja	mb2_fail
	movl	(%edi), %eax
	cmpl	$MB2_TAG_END, %eax
	je	mb2_walk_done
	cmpl	$MB2_TAG_TYPES, %eax
	jae	1f
	call	*mb2_tag_handlers(, %eax, 4)
1:	addl	$7, %ecx		/* size <= MB2_MBI_MAX: no overflow */
	andl	$~7, %ecx
	addl	%ecx, %edi
	jmp	mb2_next_tag

mb2_walk_done:
	movl	$mb2_start_info, %ebx
	jmp	pvh_start32

/*
 * The tag handlers.  In: EDI = tag, ECX = its size (>= 8, inside the MBI).
 * Out: mb2_start_info and its buffers updated.  Preserve every register.
 */
mb2_tag_skip:
	ret

/* The kernel command line: copied (at most MB2_CMDLINE_MAX - 1 bytes), NUL-terminated. */
mb2_tag_cmdline:
	pushal
	leal	MB2_TAG_HEADER_SIZE(%edi), %esi
	subl	$MB2_TAG_HEADER_SIZE, %ecx
	cmpl	$(MB2_CMDLINE_MAX - 1), %ecx
	jbe	1f
	movl	$(MB2_CMDLINE_MAX - 1), %ecx
1:	movl	$mb2_cmdline, %edi
2:	jecxz	3f
	lodsb
	testb	%al, %al
	jz	3f
	stosb
	decl	%ecx
	jmp	2b
3:	movb	$0, (%edi)
	movl	$mb2_cmdline, mb2_start_info + PVH_SI_CMDLINE
	popal
	ret

/* A module: kept while there is room, counted always; its string if terminated in the tag. */
mb2_tag_module:
	pushal
	cmpl	$MB2_MOD_STRING, %ecx
	jb	9f
	movl	MB2_MOD_START(%edi), %eax
	movl	MB2_MOD_END(%edi), %ebx
	subl	%eax, %ebx
	jb	9f			/* ends before it starts: not a module */
	movl	mb2_start_info + PVH_SI_NR_MODULES, %ebp
	cmpl	$MB2_MODULES_MAX, %ebp
	jae	8f
	imull	$PVH_MOD_ENTRY_SIZE, %ebp, %ebp
	addl	$mb2_modules, %ebp
	/* The high halves stay zero: the list starts zeroed and is filled once. */
	movl	%eax, PVH_MOD_PADDR(%ebp)
	movl	%ebx, PVH_MOD_SIZE(%ebp)
	cmpl	$MB2_MOD_STRING, %ecx
	je	8f
	cmpb	$0, -1(%edi, %ecx)
	jne	8f
	leal	MB2_MOD_STRING(%edi), %eax
	movl	%eax, PVH_MOD_CMDLINE(%ebp)
8:	incl	mb2_start_info + PVH_SI_NR_MODULES
9:	popal
	ret

/* The memory map: entries of entry_size >= 24 bytes; types 1..5 kept, others "reserved". */
mb2_tag_mmap:
	pushal
	cmpl	$MB2_MMAP_ENTRIES, %ecx
	jb	9f
	movl	MB2_MMAP_ENTRY_SIZE(%edi), %ebx
	cmpl	$MB2_MMAP_ENTRY_MIN, %ebx
	jb	9f
	leal	-MB2_MMAP_ENTRIES(%ecx), %eax
	xorl	%edx, %edx
	divl	%ebx
	movl	%eax, %ecx		/* whole entries inside the tag */
	leal	MB2_MMAP_ENTRIES(%edi), %esi
1:	jecxz	9f
	movl	mb2_start_info + PVH_SI_MEMMAP_ENTRIES, %ebp
	cmpl	$MB2_MEMMAP_MAX, %ebp
	jae	3f
	imull	$PVH_MEMMAP_ENTRY_SIZE, %ebp, %ebp
	addl	$mb2_memmap, %ebp
	movl	MB2_MMAP_BASE(%esi), %eax
	movl	%eax, PVH_MEMMAP_ADDR(%ebp)
	movl	MB2_MMAP_BASE + 4(%esi), %eax
	movl	%eax, PVH_MEMMAP_ADDR + 4(%ebp)
	movl	MB2_MMAP_LENGTH(%esi), %eax
	movl	%eax, PVH_MEMMAP_SIZE(%ebp)
	movl	MB2_MMAP_LENGTH + 4(%esi), %eax
	movl	%eax, PVH_MEMMAP_SIZE + 4(%ebp)
	movl	MB2_MMAP_TYPE(%esi), %eax
	leal	-1(%eax), %edx
	cmpl	$(MB2_MMAP_TYPE_MAX - 1), %edx
	jbe	2f
	movl	$MB2_MMAP_TYPE_RESERVED, %eax
2:	movl	%eax, PVH_MEMMAP_TYPE(%ebp)
3:	incl	mb2_start_info + PVH_SI_MEMMAP_ENTRIES
	addl	%ebx, %esi
	decl	%ecx
	jmp	1b
9:	popal
	ret

/*
 * The RSDP, copied out of its tag (at most MB2_RSDP_MAX bytes) into mb2_rsdp
 * and passed by that address; the ACPI 2.0 copy wins whatever the tag order.
 */
mb2_tag_acpi_new:
	pushal
	movl	$1, %ebp
	jmp	1f
mb2_tag_acpi_old:
	pushal
	xorl	%ebp, %ebp
	cmpl	$0, mb2_rsdp_is_new
	jne	9f
1:	subl	$MB2_TAG_HEADER_SIZE, %ecx
	cmpl	$MB2_RSDP_V1_SIZE, %ecx
	jb	9f
	leal	MB2_TAG_HEADER_SIZE(%edi), %esi
	cmpl	$MB2_RSDP_SIG_LO, (%esi)
	jne	9f
	cmpl	$MB2_RSDP_SIG_HI, 4(%esi)
	jne	9f
	cmpl	$MB2_RSDP_MAX, %ecx
	jbe	2f
	movl	$MB2_RSDP_MAX, %ecx
2:	movl	$mb2_rsdp, %edi
	rep movsb
	movl	%ebp, mb2_rsdp_is_new
	movl	$mb2_rsdp, mb2_start_info + PVH_SI_RSDP
9:	popal
	ret

/*
 * mb2_fail
 * In:  ESI = NUL-terminated message.
 * Out: never returns: programs COM1 (8N1, no interrupts; the loader may have
 *      left it in any mode), writes the message waiting for THR empty before
 *      each byte (bounded), then halts.
 */
mb2_fail:
	movl	$mb2_uart_setup, %ebx
	movl	$(mb2_uart_setup_end - mb2_uart_setup) / 2, %ecx
1:	movzbl	(%ebx), %edx
	addl	$MB2_COM1, %edx
	movb	1(%ebx), %al
	outb	%al, %dx
	addl	$2, %ebx
	loop	1b
2:	lodsb
	testb	%al, %al
	jz	4f
	movb	%al, %ah
	movl	$UART_TX_SPINS, %ecx
	movl	$(MB2_COM1 + UART_LSR), %edx
3:	inb	%dx, %al
	testb	$UART_LSR_THRE, %al
	loopz	3b
	movl	$MB2_COM1, %edx
	movb	%ah, %al
	outb	%al, %dx
	jmp	2b
4:	cli
	hlt
	jmp	4b

	.section .boot.rodata, "a"
	.balign 4
mb2_tag_handlers:
	.long	mb2_tag_skip		/* 0: end, handled by the walk */
	.long	mb2_tag_cmdline		/* 1 */
	.long	mb2_tag_skip		/* 2: boot loader name */
	.long	mb2_tag_module		/* 3 */
	.long	mb2_tag_skip		/* 4: basic memory info */
	.long	mb2_tag_skip		/* 5: BIOS boot device */
	.long	mb2_tag_mmap		/* 6 */
	.rept	MB2_TAG_ACPI_OLD - 7
	.long	mb2_tag_skip		/* 7..13: VBE, framebuffer, ELF sections, APM, EFI */
	.endr
	.long	mb2_tag_acpi_old	/* 14 */
	.long	mb2_tag_acpi_new	/* 15 */
mb2_tag_handlers_end:
	.if	(mb2_tag_handlers_end - mb2_tag_handlers) != MB2_TAG_TYPES * 4
	.error	"mb2_tag_handlers must cover MB2_TAG_TYPES types"
	.endif

/* (register offset, value): IER off; DLAB, divisor 1 (115200); 8N1; FIFO on and cleared; DTR RTS. */
mb2_uart_setup:
	.byte	1, 0x00, 3, 0x80, 0, 0x01, 1, 0x00, 3, 0x03, 2, 0xc7, 4, 0x03
mb2_uart_setup_end:

msg_magic:
	.asciz	"\r\nentrylab: not started by a Multiboot2 loader (EAX is not 0x36d76289); halted\r\n"
msg_mbi:
	.asciz	"\r\nentrylab: Multiboot2 information unusable (EBX null or unaligned, or total_size outside 16 bytes .. 1 MiB); halted\r\n"
msg_tag:
	.asciz	"\r\nentrylab: Multiboot2 information corrupt (a tag shorter than 8 bytes or past total_size, or no end tag); halted\r\n"

	.section .boot.data, "aw"
	.balign 8
	.globl mb2_start_info
mb2_start_info:
	.long	PVH_SI_MAGIC_VALUE, PVH_SI_VERSION_VALUE, 0, 0	/* magic version flags nr_modules */
	.quad	mb2_modules, 0, 0, mb2_memmap		/* modlist cmdline rsdp memmap */
	.long	0, 0					/* memmap_entries reserved */
mb2_start_info_end:
	.if	(mb2_start_info_end - mb2_start_info) != PVH_SI_SIZE
	.error	"mb2_start_info must be a struct pvh_start_info"
	.endif
	.balign 8
mb2_modules:
	.skip	MB2_MODULES_MAX * PVH_MOD_ENTRY_SIZE
mb2_memmap:
	.skip	MB2_MEMMAP_MAX * PVH_MEMMAP_ENTRY_SIZE
	.balign 16
mb2_rsdp:
	.skip	MB2_RSDP_MAX
	.balign 4
mb2_rsdp_is_new:
	.long	0
mb2_cmdline:
	.skip	MB2_CMDLINE_MAX
	.balign 16
mb2_stack:
	.skip	MB2_STACK_SIZE
mb2_stack_top:

	.section .note.GNU-stack, "", @progbits
