/*
 * The kernel's virtual address space (shared by C and asm).
 *
 *   0000000000000000 - 00007fffffffffff  user half: empty after boot (user processes)
 *   ffff888000000000 - ...               direct map of physical memory (as Linux)
 *   ffffffff80000000 - ...               kernel image: KERNEL_VBASE + physical address
 *
 * The image is loaded at physical KERNEL_PHYS (1 MiB), so its physical
 * address is its virtual address minus KERNEL_VBASE.
 */
#ifndef EL_MM_LAYOUT_H
#define EL_MM_LAYOUT_H

#ifdef __ASSEMBLER__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

#define PAGE_SHIFT 12
#define PAGE_SIZE _UL(4096)
#define LARGE_PAGE_SIZE _UL(0x200000)

#define KERNEL_VBASE _UL(0xffffffff80000000)
#define KERNEL_PHYS _UL(0x100000)
#define DIRECT_MAP_BASE _UL(0xffff888000000000)
#define USER_HALF_END _UL(0x0000800000000000)

/* What boot.S direct-maps (and identity-maps) before the kernel's own tables exist. */
#define BOOT_MAP_SIZE _UL(0x100000000)

#ifndef __ASSEMBLER__
#include <stdint.h>

/* Linker-script symbols (kernel.ld); only their addresses mean something. */
extern char __kernel_start[], __kernel_end[];
extern char __text_start[], __text_end[];
extern char __entry_text_start[], __entry_text_end[];
extern char __rodata_start[], __rodata_end[];
extern char __data_start[];
extern char __bss_start[], __bss_end[];
extern char __entry_bss_start[], __entry_bss_end[];

static inline void *phys_to_virt(uint64_t pa)
{
	return (void *)(pa + DIRECT_MAP_BASE);
}

/* Physical address of a kernel-image object (code, data, bss). */
static inline uint64_t image_to_phys(const void *p)
{
	return (uint64_t)p - KERNEL_VBASE;
}

/* Physical address of an image or direct-map address. */
static inline uint64_t virt_to_phys(const void *p)
{
	uint64_t va = (uint64_t)p;

	return va >= KERNEL_VBASE ? va - KERNEL_VBASE : va - DIRECT_MAP_BASE;
}
#endif

#endif
