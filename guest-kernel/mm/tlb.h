/*
 * TLB maintenance for user mappings and address-space switches, in one place:
 * page-table isolation and PCID (user-PCID flushes, INVPCID, NOFLUSH) change
 * only this file; the decisions themselves are pure code in pcid.c.
 */
#ifndef EL_MM_TLB_H
#define EL_MM_TLB_H

#include "kernel.h"
#include "cmdline.h"

/* Beyond this many pages a range flush becomes a full flush (Linux's ceiling). */
#define TLB_SINGLE_PAGE_CEILING 33

/*
 * After paging_init() and pti_configure(): reads CR4.PCIDE, probes INVPCID
 * (only when CPUID offers it and `noinvpcid` is absent) and records the
 * kernel's own tables as loaded.
 */
void tlb_init(const struct el_cmdline *cl);
/* INVPCID flushes user-PCID addresses (PCID on, CPUID INVPCID, no `noinvpcid`). */
bool tlb_invpcid_in_use(void);

/* One user page of the current address space changed. */
void tlb_flush_user_page(uint64_t va);
/* User pages in [start, end) changed. */
void tlb_flush_user_range(uint64_t start, uint64_t end);
/* Every non-global translation of the current address space. */
void tlb_flush_user_all(void);
/* One kernel mapping changed (every address space shares the kernel half). */
void tlb_flush_kernel_page(uint64_t va);
/*
 * User translations of an address space that is not loaded changed
 * (process_vm_writev into another process): whatever its PCID caches goes
 * before it runs again.  Without PCID every CR3 load flushes anyway.
 */
void tlb_forget_mm(uint64_t ctx_id);

/* With PCID and PTI: how many single-page user flushes took INVPCID and how many were deferred. */
void tlb_print_stats(void);

/* Loads the kernel's own tables (no process; PCID 0). */
void tlb_switch_to(uint64_t pgd_phys);
/* Loads an address space: its pgd pair and its ctx id (never reused, not 0). */
void tlb_switch_mm(uint64_t pgd_phys, uint64_t ctx_id);

#endif
