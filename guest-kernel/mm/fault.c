/*
 * Demand paging.  A fault on a user address finds its area and:
 *   not present, private anonymous, read   -> the shared zero page, read-only
 *   not present, private anonymous, write  -> a fresh zeroed frame
 *   not present, shared anonymous          -> a fresh zeroed frame
 *   not present, file                      -> a frame with a copy of the data
 *   not present, shared /tmp file          -> the file's own page
 *   present, write, writable area          -> copy-on-write (from the zero page)
 * as Linux does, so reading a large untouched mapping costs page tables only.
 *
 * The common case is short: the area comes from the set's last-hit cache
 * (vma_cached: the area of the previous fault), the leaf from the unrolled
 * walk over present tables (upt_pte_present), and a zero-page read writes
 * the area's precomputed leaf (vma.pte_zero); new frames take vma.pte.  A
 * cache miss (binary search, stack growth) and missing tables go out of line.
 */
#include "arch/x86_64/trap_pf.h"
#include "fs/vfs.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/mm.h"
#include "mm/tlb.h"
#include "mm/upt.h"
#include "proc/process.h"
#include "proc/rlimit.h"

static uint8_t zero_page[PAGE_SIZE] __page_aligned_bss;

uint64_t zero_page_phys(void)
{
	return image_to_phys(zero_page);
}

/* RLIMIT_STACK's soft limit, within the STACK_LIMIT the layout keeps free below the stack. */
static uint64_t stack_limit(void)
{
	uint64_t r = rlimit_cur(current, RLIMIT_STACK);

	return r < STACK_LIMIT ? r : STACK_LIMIT;
}

/*
 * The area for addr when the cache missed (it becomes the cached one),
 * growing the stack area down to addr when that is where it lies.
 */
static __attribute__((noinline)) struct vma *find_or_grow(struct mm *mm, uint64_t addr)
{
	struct vma_set *s = &mm->vmas;
	int found = vma_lookup(s, addr);
	unsigned i;
	struct vma *v;

	if (found >= 0)
		return &s->v[found];
	i = vma_first_above(s, addr);
	if (i >= s->n)
		return 0;
	v = &s->v[i];
	if (v->kind != VMA_STACK || addr < v->end - stack_limit() || v->end < STACK_LIMIT)
		return 0;
	/* Nothing may lie between: the array is sorted, so the previous area ends below. */
	if (i > 0 && s->v[i - 1].end > ALIGN_DOWN(addr, PAGE_SIZE))
		return 0;
	vma_grow_down(s, i, ALIGN_DOWN(addr, PAGE_SIZE));
	return v;
}

static bool access_allowed(const struct vma *v, uint64_t error)
{
	if (error & X86_PF_WRITE)
		return v->prot & VMA_W;
	if (error & X86_PF_INSTR)
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

/* A not-present page that gets a frame of its own (the zero-page read is mm_fault's). */
static __attribute__((noinline)) enum fault_result
fault_not_present(struct mm *mm, const struct vma *v, uint64_t *pte, uint64_t page)
{
	uint64_t pa;

	if (v->kind == VMA_SPECIAL)
		return FAULT_BAD_ACCESS;
	if (v->kind == VMA_FILE_SHARED) {
		/* The file's page itself: every mapping and read/write see one copy. */
		pa = regfile_page((void *)v->file, v->pgoff + (page - v->start));
		if (!pa)
			return FAULT_OOM;
		*pte = pa | v->pte | PTE_SW_NOFREE;
		return FAULT_HANDLED;
	}
	pa = new_frame(v, page);
	if (!pa)
		return FAULT_OOM;
	mm->rss++;
	*pte = pa | v->pte;
	return FAULT_HANDLED;
}

/* Write to a present read-only page of a writable area: break the sharing. */
static __attribute__((noinline)) enum fault_result
fault_cow(struct mm *mm, const struct vma *v, uint64_t *pte, uint64_t page)
{
	uint64_t old = *pte, pa;

	if (v->kind == VMA_SPECIAL)
		return FAULT_BAD_ACCESS;
	if (!(old & PTE_SW_NOFREE) || v->kind == VMA_FILE_SHARED) {
		/* Our own frame (maybe shared) or the file's, read-only from an earlier mprotect. */
		*pte = (old & (PTE_ADDR_MASK | PTE_SW_KEEP)) | v->pte;
	} else {
		pa = frame_alloc();
		if (!pa)
			return FAULT_OOM;
		memcpy(phys_to_virt(pa), phys_to_virt(old & PTE_ADDR_MASK), PAGE_SIZE);
		mm->rss++;
		*pte = pa | v->pte;
	}
	tlb_flush_user_page(page);
	return FAULT_HANDLED;
}

/* Every fault but mm_fault's common case: the full decision, as the table at the top says. */
static __attribute__((noinline)) enum fault_result fault_slow(struct mm *mm, uint64_t addr,
							     uint64_t error)
{
	uint64_t page = ALIGN_DOWN(addr, PAGE_SIZE), *pte, e;
	struct vma *v;

	if (addr >= TASK_SIZE_MAX || (error & X86_PF_RSVD))
		return FAULT_BAD_ADDRESS;
	v = vma_cached(&mm->vmas, addr);
	if (!v && !(v = find_or_grow(mm, addr)))
		return FAULT_BAD_ADDRESS;
	if (!access_allowed(v, error))
		return FAULT_BAD_ACCESS;
	pte = upt_pte(mm, page, true);
	if (!pte)
		return FAULT_OOM;
	e = *pte;
	if (!(e & PTE_P)) {
		/* A read of private anonymous memory (pte_zero set only for those kinds). */
		if (!(error & X86_PF_WRITE) && v->pte_zero) {
			*pte = v->pte_zero;
			return FAULT_HANDLED;
		}
		return fault_not_present(mm, v, pte, page);
	}
	if ((error & X86_PF_WRITE) && !(e & PTE_W))
		return fault_cow(mm, v, pte, page);
	/*
	 * Present and allowed: a stale TLB entry from before a permission
	 * change.  A supervisor fault here (SMAP, a kernel bug) must not loop:
	 * report it so the exception table or the panic takes over.
	 */
	if (!(error & X86_PF_USER) && (error & X86_PF_PROT))
		return FAULT_BAD_ACCESS;
	tlb_flush_user_page(page);
	return FAULT_HANDLED;
}

/*
 * The common case in caller-saved registers: a data read (no write, no
 * fetch, no reserved bit) in the cached area (so a user address), of a kind that reads the zero
 * page (pte_zero is 0 for the others and for PROT_NONE, so the area is
 * readable), under present tables, of a slot with nothing mapped: the
 * area's zero-page leaf goes in, as fault_slow would write it.  Anything
 * else is fault_slow's.
 */
enum fault_result mm_fault(struct mm *mm, uint64_t addr, uint64_t error)
{
	const struct vma *v;
	uint64_t *pte;

	/* A cached area lies below TASK_SIZE_MAX: a hit is a user address. */
	if (!(error & (X86_PF_WRITE | X86_PF_RSVD | X86_PF_INSTR))) {
		v = vma_cached(&mm->vmas, addr);
		if (v && v->pte_zero && upt_pte_present(mm, addr, &pte) && !(*pte & PTE_P)) {
			*pte = v->pte_zero;
			return FAULT_HANDLED;
		}
	}
	return fault_slow(mm, addr, error);
}

enum fault_result mm_populate(struct mm *mm, uint64_t start, uint64_t end, bool write)
{
	enum fault_result r = FAULT_HANDLED;

	for (; start < end && r == FAULT_HANDLED; start += PAGE_SIZE)
		r = mm_fault(mm, start, write ? X86_PF_WRITE | X86_PF_USER : X86_PF_USER);
	return r;
}
