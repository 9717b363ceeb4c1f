/*
 * Page access in any address space (mm.h: mm_access_page), the kernel's
 * get_user_pages: the area decides what is allowed, demand paging makes the
 * page present (copying on write as a user write would), and the frame is
 * reached through the direct map, so the space need not be loaded.
 */
#include "arch/x86_64/trap_pf.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "vdso/vdso.h"
#include "vsyscall/vsyscall.h"

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
		if (mm_fault(mm, addr, write ? X86_PF_USER | X86_PF_WRITE : X86_PF_USER) != FAULT_HANDLED)
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

/* The 4 KiB kernel-table leaf of va, 0 when none. */
static uint64_t kernel_leaf(uint64_t va)
{
	const uint64_t *t = kpaging.pml4;
	unsigned shift;

	for (shift = PML4_SHIFT; shift > PAGE_SHIFT; shift -= 9) {
		uint64_t e = t[PT_INDEX(va, shift)];

		if (!(e & PTE_P) || (e & PTE_PS))
			return 0;
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return t[PT_INDEX(va, PAGE_SHIFT)];
}

const void *mm_gate_page(uint64_t addr)
{
	const char *perms = vsyscall_maps_perms();
	uint64_t e;

	if (addr < VSYSCALL_ADDR || addr >= VSYSCALL_ADDR + PAGE_SIZE || !vsyscall_mapped() ||
	    perms[0] != 'r')
		return 0;
	e = kernel_leaf(VSYSCALL_ADDR);
	if (!(e & PTE_P))
		return 0;
	return (const uint8_t *)phys_to_virt(e & PTE_ADDR_MASK) + (addr - VSYSCALL_ADDR);
}
