/*
 * The kernel's own page tables, replacing boot.S's: the image with per-
 * section permissions, the direct map of RAM, nothing in the user half.
 */
#ifndef EL_PAGING_H
#define EL_PAGING_H

#include "kernel.h"

struct kernel_paging {
	uint64_t pml4_phys;       /* the kernel's top-level table (CR3 without PCID) */
	uint64_t *pml4;
	uint64_t global;          /* PTE_G on every kernel mapping, or 0 */
	uint64_t nx;              /* PTE_NX on non-code mappings, or 0 without EFER.NXE */
	uint64_t direct_map_end;  /* physical memory below this is direct-mapped (2 MiB units) */
	bool direct_map_cut;      /* RAM beyond what the table pool could map */
	unsigned table_pages;     /* page-table pages in use */
};

extern struct kernel_paging kpaging;

/*
 * Needs bootinfo_capture() and cpu_setup() (CR4.PGE decides the G bits,
 * EFER.NXE the NX bits).  Switches CR3: the identity map is gone afterwards.
 */
void paging_init(void);

#endif
