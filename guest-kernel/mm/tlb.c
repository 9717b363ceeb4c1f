/*
 * TLB flushes and CR3 loads (tlb.h).  Without PCID: INVLPG per page, a CR3
 * reload (which keeps global kernel entries) for everything.
 */
#include "arch/x86_64/cpu.h"
#include "mm/layout.h"
#include "mm/tlb.h"

void tlb_flush_user_page(uint64_t va)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(va) : "memory");
}

void tlb_flush_user_range(uint64_t start, uint64_t end)
{
	if ((end - start) / PAGE_SIZE > TLB_SINGLE_PAGE_CEILING) {
		tlb_flush_user_all();
		return;
	}
	for (; start < end; start += PAGE_SIZE)
		tlb_flush_user_page(start);
}

void tlb_flush_user_all(void)
{
	uint64_t cr3;

	__asm__ __volatile__("mov %%cr3, %0\n\tmov %0, %%cr3" : "=r"(cr3) : : "memory");
}

void tlb_switch_to(uint64_t pgd_phys)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(pgd_phys) : "memory");
}
