/*
 * x86-64 4-level page-table entry bits and index helpers (C and asm).
 */
#ifndef EL_MM_PGTABLE_H
#define EL_MM_PGTABLE_H

#include "mm/layout.h"

#define PTE_P _UL(0x001)   /* present */
#define PTE_W _UL(0x002)   /* writable */
#define PTE_U _UL(0x004)   /* user */
#define PTE_PWT _UL(0x008)
#define PTE_PCD _UL(0x010)
#define PTE_A _UL(0x020)   /* accessed */
#define PTE_D _UL(0x040)   /* dirty */
#define PTE_PS _UL(0x080)  /* large page (PDPT/PD level) */
#define PTE_G _UL(0x100)   /* global: survives CR3 writes with CR4.PGE */
#define PTE_NX _UL(0x8000000000000000) /* no execute, needs EFER.NXE */
#define PTE_ADDR_MASK _UL(0x000ffffffffff000)

#define PT_ENTRIES 512
#define PML4_SHIFT 39
#define PDPT_SHIFT 30
#define PD_SHIFT 21

/* PML4 slot of the first kernel-half address. */
#define PML4_KERNEL_FIRST 256

#ifndef __ASSEMBLER__
#define PT_INDEX(va, shift) ((unsigned)(((va) >> (shift)) & (PT_ENTRIES - 1)))
#endif

#endif
