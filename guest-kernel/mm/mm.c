/*
 * Address spaces (mm.h): creation with the shared kernel half, teardown, and
 * the area operations behind mmap, munmap, mprotect and brk.
 */
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "mm/pti.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "sys/errno.h"

static uint64_t last_ctx_id;

int mm_create(struct mm *mm)
{
	uint64_t pa = frame_alloc_order(1);

	if (!pa)
		return -ENOMEM;
	memset(mm, 0, sizeof(*mm));
	mm->pgd_phys = pa;
	mm->pgd = phys_to_virt(pa);
	memset(mm->pgd, 0, 2 * PAGE_SIZE);
	/* The kernel half is the kernel's own tables, shared below the PML4. */
	memcpy(mm->pgd + PML4_KERNEL_FIRST, kpaging.pml4 + PML4_KERNEL_FIRST,
	       (PT_ENTRIES - PML4_KERNEL_FIRST) * sizeof(uint64_t));
	/* Under PTI the user PGD gets the entry area only. */
	pti_pgd_init(mm->pgd);
	mm->ctx_id = ++last_ctx_id;
	vma_set_init(&mm->vmas);
	mm->mmap_base = STACK_TOP - MMAP_GAP;
	return 0;
}

void mm_destroy(struct mm *mm)
{
	upt_unmap(mm, 0, USER_HALF_END);
	frame_free_order(mm->pgd_phys, 1);
	mm->pgd = 0;
	mm->pgd_phys = 0;
	mm->vmas.n = 0;
}

void mm_activate(struct mm *mm)
{
	tlb_switch_mm(mm->pgd_phys, mm->ctx_id);
}

int mm_map(struct mm *mm, const struct vma *v)
{
	if (!vma_range_free(&mm->vmas, v->start, v->end))
		return -EEXIST;
	return vma_insert(&mm->vmas, v) ? -ENOMEM : 0;
}

int mm_unmap(struct mm *mm, uint64_t start, uint64_t end)
{
	if (vma_remove(&mm->vmas, start, end))
		return -ENOMEM;
	/* Flush even when no leaf was present: freed tables may sit in paging-structure caches. */
	upt_unmap(mm, start, end);
	tlb_flush_user_range(start, end);
	return 0;
}

int mm_protect(struct mm *mm, uint64_t start, uint64_t end, uint32_t prot)
{
	if (!vma_range_covered(&mm->vmas, start, end))
		return -ENOMEM;
	if (vma_protect(&mm->vmas, start, end, prot))
		return -ENOMEM;
	upt_protect(mm, start, end, prot);
	tlb_flush_user_range(start, end);
	return 0;
}

uint64_t mm_find_free(struct mm *mm, uint64_t len)
{
	return vma_gap_topdown(&mm->vmas, len, MMAP_MIN_ADDR, mm->mmap_base);
}
