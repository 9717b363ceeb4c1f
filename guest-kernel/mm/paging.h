/*
 * The kernel's own page tables, replacing boot.S's: the image with per-
 * section permissions, the direct map of RAM, nothing in the user half.
 * Their kernel half (PML4 slots 256-511) is shared by every address space:
 * each process's top-level table copies these PML4 entries when it is
 * created, so later changes below the PML4 level reach every process, but a
 * PML4 entry added after the first process exists would not.
 */
#ifndef EL_PAGING_H
#define EL_PAGING_H

#include "kernel.h"

#define KERNEL_HALF_START 0xffff800000000000ull

struct kernel_paging {
	uint64_t pml4_phys;       /* the kernel's top-level table (CR3 without PCID) */
	uint64_t *pml4;
	uint64_t global;          /* PTE_G or 0 outside the image (the image: pti.c) */
	uint64_t nx;              /* PTE_NX on non-code mappings, or 0 without EFER.NXE */
	uint64_t direct_map_end;  /* physical memory below this is direct-mapped (2 MiB units) */
	bool direct_map_cut;      /* RAM beyond what the frames could map */
	unsigned table_pages;     /* kernel page-table pages in use */
};

extern struct kernel_paging kpaging;

/*
 * Needs frame_init() and cpu_setup() (CR4.PGE decides the G bits, EFER.NXE
 * the NX bits).  Switches CR3: the identity map is gone afterwards.
 */
void paging_init(void);

/*
 * Maps one 4 KiB page in the kernel half (va >= KERNEL_HALF_START) with
 * flags (PTE_P implied, and PTE_G without PTI, as for every mapping outside
 * the image; PTE_U also sets U on the intermediate entries, as the vsyscall
 * page needs) and flushes it.  After paging_init(), before the
 * first process if the PML4 entry is new.  False on a bad argument or when
 * out of frames.
 */
bool paging_map_kernel_page(uint64_t va, uint64_t pa, uint64_t flags);

/* Removes the 4 KiB kernel mapping of va (a guard page below a stack); false if none. */
bool paging_unmap_kernel_page(uint64_t va);

#endif
