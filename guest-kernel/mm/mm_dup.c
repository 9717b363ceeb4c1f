/*
 * fork's address space (mm.h: mm_dup).
 *
 * An eager copy, not copy-on-write: every present private page gets a new
 * frame with a copy of its data at fork time.  Fork is in no measured path,
 * and an eager copy keeps the child's and the parent's later faults exactly
 * as they would be without the fork (no write faults that only a fork
 * introduced, no frame shared in secret), so runs stay deterministic and
 * the fault counters mean the same with and without a fork before them.
 *
 * What is not copied:
 *   PTE_SW_NOFREE leaves    the zero page, [vdso], [vvar]: mapped as they are
 *                           (the zero page stays copy-on-write for both);
 *   MAP_SHARED anonymous    the frame itself, counted in frame_share.h; its
 *                           pages absent in the parent are made present there
 *                           first, so a page either side touches later is one
 *                           both see.
 * PROT_NONE pages (PTE_SW_PROTNONE) keep their frame, so they are copied.
 * The child's top-level pair is made as every space's (mm_create: the
 * kernel half, the PTI user PGD) and its tables by upt_pte, which writes
 * top-level entries through pti_pgd_set; it gets a new PCID context id.
 */
#include "arch/x86_64/ldt.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/frame_share.h"
#include "mm/mm.h"
#include "mm/upt.h"

struct dup_ctx {
	struct mm *dst, *src;
	const struct vma *v;
};

/* Every page of a MAP_SHARED area gets its frame in src (zeroed, as its first touch would). */
static int populate_shared(struct mm *mm, const struct vma *v)
{
	uint64_t va;

	for (va = v->start; va < v->end; va += PAGE_SIZE) {
		uint64_t *pte = upt_pte(mm, va, true), pa;

		if (!pte)
			return -1;
		if (pte_has_frame(*pte))
			continue;
		pa = frame_alloc_zeroed();
		if (!pa)
			return -1;
		mm->rss++;
		/* Not present before: nothing to flush. */
		*pte = pa | v->pte;
	}
	return 0;
}

static int dup_leaf(void *ctx, uint64_t va, uint64_t *pte)
{
	struct dup_ctx *c = ctx;
	uint64_t e = *pte, pa = e & PTE_ADDR_MASK, *d, copy;

	if (!pte_has_frame(e))
		return 0;
	d = upt_pte(c->dst, va, true);
	if (!d)
		return -1;
	if (e & PTE_SW_NOFREE) {
		*d = e;
		return 0;
	}
	if (c->v->kind == VMA_ANON_SHARED) {
		if (frame_share_get(pa))
			return -1;
		/* A software bit: the TLB entries of the parent stay valid. */
		*pte = e | PTE_SW_SHARED;
		*d = e | PTE_SW_SHARED;
		c->dst->rss++;
		return 0;
	}
	copy = frame_alloc();
	if (!copy)
		return -1;
	memcpy(phys_to_virt(copy), phys_to_virt(pa), PAGE_SIZE);
	c->dst->rss++;
	*d = copy | (e & ~(PTE_ADDR_MASK | PTE_SW_SHARED));
	return 0;
}

struct mm *mm_dup(const struct mm *src_const)
{
	/*
	 * Const for the callers: src keeps its areas and contents.  Its shared
	 * pages become present and marked shared, which writes its tables.
	 */
	struct mm *src = (struct mm *)src_const, *dst = mm_alloc();
	struct dup_ctx c = {dst, src, 0};
	unsigned i;

	if (!dst)
		return 0;
	dst->vmas = src->vmas;
	dst->start_brk = src->start_brk;
	dst->brk = src->brk;
	dst->start_stack = src->start_stack;
	dst->mmap_base = src->mmap_base;
	dst->ia32 = src->ia32;
	dst->vdso_base = src->vdso_base;
	dst->vdso32_base = src->vdso32_base;
	dst->exe_file = src->exe_file;
	dst->arg_start = src->arg_start;
	dst->arg_end = src->arg_end;
	dst->env_start = src->env_start;
	dst->env_end = src->env_end;
	for (i = 0; i < src->vmas.n; i++) {
		c.v = &src->vmas.v[i];
		if ((c.v->kind == VMA_ANON_SHARED && populate_shared(src, c.v)) ||
		    upt_walk(src, c.v->start, c.v->end, dup_leaf, &c))
			goto fail;
	}
	/* The LDT is the address space's: the child gets a copy (modify_ldt's entries). */
	if (ldt_dup(dst, src))
		goto fail;
	return dst;
fail:
	kprintf("fork: out of frames (or shared-frame slots) copying the address space\n");
	mm_put(dst);
	return 0;
}
