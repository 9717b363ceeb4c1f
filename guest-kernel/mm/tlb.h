/*
 * TLB maintenance for user mappings and address-space switches, in one place
 * so that page-table isolation and PCID (issue 4: user PCID flushes,
 * INVPCID, NOFLUSH) change only this file.
 */
#ifndef EL_MM_TLB_H
#define EL_MM_TLB_H

#include "kernel.h"

/* Beyond this many pages a range flush becomes a full flush (Linux's ceiling). */
#define TLB_SINGLE_PAGE_CEILING 33

/* One user page of the current address space changed. */
void tlb_flush_user_page(uint64_t va);
/* User pages in [start, end) changed. */
void tlb_flush_user_range(uint64_t start, uint64_t end);
/* Every non-global translation. */
void tlb_flush_user_all(void);
/* Loads the address space whose top-level table is at pgd_phys. */
void tlb_switch_to(uint64_t pgd_phys);

#endif
