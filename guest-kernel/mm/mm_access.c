/*
 * Page access in any address space (mm.h: mm_access_page), the kernel's
 * get_user_pages: the area decides what is allowed, demand paging makes the
 * page present (copying on write as a user write would), and the frame is
 * reached through the direct map, so the space need not be loaded.
 */
#include "mm/mm.h"
#include "mm/tlb.h"
#include "mm/upt.h"

#define PF_WRITE 0x2u
#define PF_USER 0x4u

void *mm_access_page(struct mm *mm, uint64_t addr, bool write)
{
	int i = addr < TASK_SIZE_MAX ? vma_find(&mm->vmas, addr) : -1;
	uint64_t page = ALIGN_DOWN(addr, PAGE_SIZE), *pte;
	const struct vma *v;

	if (i < 0)
		return 0;
	v = &mm->vmas.v[i];
	/* As Linux's check_vma_flags without FOLL_FORCE: no PFN maps, no access the area denies. */
	if (mm_area_is_vvar(v) || !(v->prot & (write ? VMA_W : VMA_R)))
		return 0;
	pte = upt_pte(mm, page, false);
	if (!pte || !(*pte & PTE_P) || (write && !(*pte & PTE_W))) {
		if (mm_fault(mm, addr, write ? PF_USER | PF_WRITE : PF_USER) != FAULT_HANDLED)
			return 0;
		/*
		 * A copy on write replaced a frame: the fault flushed the loaded
		 * space, which is not this one, whose PCID may cache the old frame.
		 */
		if (!mm_is_loaded(mm))
			tlb_forget_mm(mm->ctx_id);
		pte = upt_pte(mm, page, false);
		if (!pte || !(*pte & PTE_P))
			return 0;
	}
	/* The page is used as the access would use it: referenced, and dirty when written. */
	*pte |= PTE_A | (write ? PTE_D : 0);
	return (uint8_t *)phys_to_virt(*pte & PTE_ADDR_MASK) + (addr & (PAGE_SIZE - 1));
}
