/*
 * Recursive page-table walk through the direct map.
 */
#include "mm/pgtable.h"
#include "mm/ptwalk.h"

/* Level 4 = PML4 ... level 1 = page table; shift of the address bits each level indexes. */
static const unsigned level_shift[5] = {0, PAGE_SHIFT, PD_SHIFT, PDPT_SHIFT, PML4_SHIFT};

static uint64_t canonical(uint64_t va)
{
	return (va & BIT(47)) ? va | 0xffff000000000000ull : va;
}

static void walk_table(uint64_t table_phys, int level, uint64_t base, unsigned first,
		       unsigned last, pt_leaf_fn *fn, void *ctx)
{
	const uint64_t *t = phys_to_virt(table_phys);
	unsigned i;

	for (i = first; i <= last; i++) {
		uint64_t e = t[i];
		uint64_t va = base + ((uint64_t)i << level_shift[level]);

		if (!(e & PTE_P))
			continue;
		if (level == 1 || ((level == 2 || level == 3) && (e & PTE_PS)))
			fn(ctx, canonical(va), e, 1ull << level_shift[level]);
		else if (level > 1)
			walk_table(e & PTE_ADDR_MASK, level - 1, va, 0, PT_ENTRIES - 1, fn, ctx);
	}
}

void pt_walk(uint64_t pml4_phys, unsigned first, unsigned last, pt_leaf_fn *fn, void *ctx)
{
	walk_table(pml4_phys, 4, 0, first, last, fn, ctx);
}
