/*
 * Demand paging.  A fault on a user address finds its area and:
 *   not present, private anonymous, read   -> the shared zero page, read-only
 *   not present, private anonymous, write  -> a fresh zeroed frame
 *   not present, shared anonymous          -> a fresh zeroed frame
 *   not present, file                      -> a frame with a copy of the data
 *   present, write, writable area          -> copy-on-write (from the zero page)
 * as Linux does, so reading a large untouched mapping costs page tables only.
 */
#include "fs/vfs.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/mm.h"
#include "mm/tlb.h"
#include "mm/upt.h"

#define PF_PRESENT 0x1u
#define PF_WRITE 0x2u
#define PF_USER 0x4u
#define PF_RSVD 0x8u
#define PF_INSTR 0x10u

static uint8_t zero_page[PAGE_SIZE] __page_aligned_bss;

uint64_t zero_page_phys(void)
{
	return image_to_phys(zero_page);
}

/* The area for addr, growing the stack area down to it when that is where it lies. */
static struct vma *find_or_grow(struct mm *mm, uint64_t addr)
{
	unsigned i = vma_first_above(&mm->vmas, addr);
	struct vma *v = i < mm->vmas.n ? &mm->vmas.v[i] : 0;

	if (!v)
		return 0;
	if (v->start <= addr)
		return v;
	if (v->kind != VMA_STACK || addr < v->end - STACK_LIMIT || v->end < STACK_LIMIT)
		return 0;
	/* Nothing may lie between: the array is sorted, so the previous area ends below. */
	if (i > 0 && mm->vmas.v[i - 1].end > ALIGN_DOWN(addr, PAGE_SIZE))
		return 0;
	v->start = ALIGN_DOWN(addr, PAGE_SIZE);
	return v;
}

static bool access_allowed(const struct vma *v, uint64_t error)
{
	if (error & PF_WRITE)
		return v->prot & VMA_W;
	if (error & PF_INSTR)
		return v->prot & VMA_X;
	return v->prot & (VMA_R | VMA_W | VMA_X);
}

/* A new frame for a not-present page of v: zeroed or filled from the file. */
static uint64_t new_frame(const struct vma *v, uint64_t page)
{
	uint64_t pa;

	if (v->kind != VMA_FILE)
		return frame_alloc_zeroed();
	pa = frame_alloc();
	if (pa)
		vfs_fill_page(v->file, v->pgoff + (page - v->start), v->file_end, phys_to_virt(pa));
	return pa;
}

static enum fault_result fault_not_present(struct mm *mm, const struct vma *v, uint64_t *pte,
					   uint64_t page, uint64_t error)
{
	uint64_t bits = upt_prot_bits(v->prot), pa;

	if (v->kind == VMA_SPECIAL)
		return FAULT_BAD_ACCESS;
	if (!(error & PF_WRITE) && v->kind != VMA_ANON_SHARED && v->kind != VMA_FILE) {
		*pte = zero_page_phys() | PTE_SW_NOFREE | (bits & ~PTE_W);
		return FAULT_HANDLED;
	}
	pa = new_frame(v, page);
	if (!pa)
		return FAULT_OOM;
	mm->rss++;
	*pte = pa | bits;
	return FAULT_HANDLED;
}

/* Write to a present read-only page of a writable area: break the sharing. */
static enum fault_result fault_cow(struct mm *mm, const struct vma *v, uint64_t *pte,
				   uint64_t page)
{
	uint64_t old = *pte, pa;

	if (v->kind == VMA_SPECIAL)
		return FAULT_BAD_ACCESS;
	if (!(old & PTE_SW_NOFREE)) {
		/* Our own frame (maybe shared), read-only from an earlier mprotect: allow writes. */
		*pte = (old & (PTE_ADDR_MASK | PTE_SW_KEEP)) | upt_prot_bits(v->prot);
	} else {
		pa = frame_alloc();
		if (!pa)
			return FAULT_OOM;
		memcpy(phys_to_virt(pa), phys_to_virt(old & PTE_ADDR_MASK), PAGE_SIZE);
		mm->rss++;
		*pte = pa | upt_prot_bits(v->prot);
	}
	tlb_flush_user_page(page);
	return FAULT_HANDLED;
}

enum fault_result mm_fault(struct mm *mm, uint64_t addr, uint64_t error)
{
	uint64_t page = ALIGN_DOWN(addr, PAGE_SIZE), *pte;
	struct vma *v;

	if (addr >= TASK_SIZE_MAX || (error & PF_RSVD))
		return FAULT_BAD_ADDRESS;
	v = find_or_grow(mm, addr);
	if (!v)
		return FAULT_BAD_ADDRESS;
	if (!access_allowed(v, error))
		return FAULT_BAD_ACCESS;
	pte = upt_pte(mm, page, true);
	if (!pte)
		return FAULT_OOM;
	if (!(*pte & PTE_P))
		return fault_not_present(mm, v, pte, page, error);
	if ((error & PF_WRITE) && !(*pte & PTE_W))
		return fault_cow(mm, v, pte, page);
	/*
	 * Present and allowed: a stale TLB entry from before a permission
	 * change.  A supervisor fault here (SMAP, a kernel bug) must not loop:
	 * report it so the exception table or the panic takes over.
	 */
	if (!(error & PF_USER) && (error & PF_PRESENT))
		return FAULT_BAD_ACCESS;
	tlb_flush_user_page(page);
	return FAULT_HANDLED;
}

enum fault_result mm_populate(struct mm *mm, uint64_t start, uint64_t end, bool write)
{
	enum fault_result r = FAULT_HANDLED;

	for (; start < end && r == FAULT_HANDLED; start += PAGE_SIZE)
		r = mm_fault(mm, start, write ? PF_WRITE | PF_USER : PF_USER);
	return r;
}
