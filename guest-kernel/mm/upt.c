/*
 * User page-table walks (upt.h): lookup with allocation, unmap with freeing
 * of empty tables, protection changes.  Levels: 4 = PML4 ... 1 = page table.
 */
#include "mm/frame.h"
#include "mm/frame_share.h"
#include "mm/paging.h"
#include "mm/pti.h"
#include "mm/upt.h"
#include "mm/vma.h"
#include "sys/errno.h"

static const unsigned level_shift[5] = {0, PAGE_SHIFT, PD_SHIFT, PDPT_SHIFT, PML4_SHIFT};

/*
 * Every write of a user-half PML4 entry goes through here: under PTI the
 * user PGD at pgd + 4096 gets the entry, the kernel PGD gets it with NX.
 */
static void pgd_set(struct mm *mm, unsigned idx, uint64_t val)
{
	pti_pgd_set(mm->pgd, idx, val);
}

uint64_t upt_prot_bits(uint32_t prot)
{
	uint64_t bits;

	if (!(prot & (VMA_R | VMA_W | VMA_X)))
		return PTE_SW_PROTNONE;
	bits = PTE_P | PTE_U;
	if (prot & VMA_W)
		bits |= PTE_W;
	if (!(prot & VMA_X))
		bits |= kpaging.nx;
	return bits;
}

static uint64_t *next_table(struct mm *mm, uint64_t *t, unsigned idx, int level, bool alloc)
{
	uint64_t pa;

	if (t[idx] & PTE_P)
		return phys_to_virt(t[idx] & PTE_ADDR_MASK);
	if (!alloc)
		return 0;
	pa = frame_alloc_zeroed();
	if (!pa)
		return 0;
	mm->table_pages++;
	if (level == 4)
		pgd_set(mm, idx, pa | PTE_P | PTE_W | PTE_U);
	else
		t[idx] = pa | PTE_P | PTE_W | PTE_U;
	return phys_to_virt(pa);
}

uint64_t *upt_pte(struct mm *mm, uint64_t va, bool alloc)
{
	uint64_t *t = mm->pgd;
	int level;

	for (level = 4; level > 1 && t; level--)
		t = next_table(mm, t, PT_INDEX(va, level_shift[level]), level, alloc);
	return t ? &t[PT_INDEX(va, PAGE_SHIFT)] : 0;
}

static bool table_empty(const uint64_t *t)
{
	unsigned i;

	for (i = 0; i < PT_ENTRIES; i++)
		if (t[i])
			return false;
	return true;
}

struct unmap_ctx {
	struct mm *mm;
	uint64_t cleared;
	uint64_t kept; /* shared frames other address spaces still own */
};

/* A leaf with a frame goes: the frame is freed unless it is not ours or not only ours. */
static void drop_leaf(struct unmap_ctx *c, uint64_t e)
{
	uint64_t pa = e & PTE_ADDR_MASK;

	c->cleared++;
	if (e & PTE_SW_NOFREE)
		return;
	c->mm->rss--;
	if ((e & PTE_SW_SHARED) && !frame_share_put(pa)) {
		c->kept++;
		return;
	}
	frame_free(pa);
}

/*
 * Clears [start, end) (inside [base, base + 512 spans)) under table t at
 * level; returns true when t is empty afterwards and may be freed.
 */
static bool unmap_table(struct unmap_ctx *c, uint64_t *t, int level, uint64_t base,
			uint64_t start, uint64_t end)
{
	unsigned shift = level_shift[level];
	uint64_t span = 1ull << shift;
	unsigned i = (unsigned)((start - base) >> shift);
	unsigned last = (unsigned)((end - 1 - base) >> shift);

	for (; i <= last; i++) {
		uint64_t e = t[i], lo = base + i * span;
		uint64_t *child;

		if (level == 1) {
			if (pte_has_frame(e))
				drop_leaf(c, e);
			t[i] = 0;
			continue;
		}
		if (!(e & PTE_P))
			continue;
		child = phys_to_virt(e & PTE_ADDR_MASK);
		if (unmap_table(c, child, level - 1, lo, start > lo ? start : lo,
				end < lo + span ? end : lo + span)) {
			frame_free(e & PTE_ADDR_MASK);
			c->mm->table_pages--;
			if (level == 4)
				pgd_set(c->mm, i, 0);
			else
				t[i] = 0;
		}
	}
	/* The top level is the pgd itself: never freed here. */
	if (level == 4)
		return false;
	if (start == base && end - base == span * PT_ENTRIES)
		return true;
	return table_empty(t);
}

uint64_t upt_unmap_counted(struct mm *mm, uint64_t start, uint64_t end, uint64_t *kept)
{
	struct unmap_ctx c = {mm, 0, 0};

	if (start < end && end <= USER_HALF_END)
		unmap_table(&c, mm->pgd, 4, 0, start, end);
	if (kept)
		*kept = c.kept;
	return c.cleared;
}

uint64_t upt_unmap(struct mm *mm, uint64_t start, uint64_t end)
{
	return upt_unmap_counted(mm, start, end, 0);
}

static void protect_table(uint64_t *t, int level, uint64_t base, uint64_t start, uint64_t end,
			  uint64_t bits)
{
	unsigned shift = level_shift[level];
	uint64_t span = 1ull << shift;
	unsigned i = (unsigned)((start - base) >> shift);
	unsigned last = (unsigned)((end - 1 - base) >> shift);

	for (; i <= last; i++) {
		uint64_t e = t[i], lo = base + i * span;

		if (level == 1) {
			uint64_t b = (e & PTE_SW_NOFREE) ? bits & ~PTE_W : bits;

			if (pte_has_frame(e))
				t[i] = (e & (PTE_ADDR_MASK | PTE_SW_KEEP)) | b;
			continue;
		}
		if (e & PTE_P)
			protect_table(phys_to_virt(e & PTE_ADDR_MASK), level - 1, lo,
				      start > lo ? start : lo, end < lo + span ? end : lo + span,
				      bits);
	}
}

void upt_protect(struct mm *mm, uint64_t start, uint64_t end, uint32_t prot)
{
	if (start < end && end <= USER_HALF_END)
		protect_table(mm->pgd, 4, 0, start, end, upt_prot_bits(prot));
}

struct walk_ctx {
	upt_leaf_fn *fn;
	void *ctx;
};

static int walk_table(const struct walk_ctx *w, uint64_t *t, int level, uint64_t base,
		      uint64_t start, uint64_t end)
{
	unsigned shift = level_shift[level];
	uint64_t span = 1ull << shift;
	unsigned i = (unsigned)((start - base) >> shift);
	unsigned last = (unsigned)((end - 1 - base) >> shift);
	int r;

	for (; i <= last; i++) {
		uint64_t e = t[i], lo = base + i * span;

		if (level == 1) {
			if (e && (r = w->fn(w->ctx, lo, &t[i])))
				return r;
			continue;
		}
		if (!(e & PTE_P))
			continue;
		r = walk_table(w, phys_to_virt(e & PTE_ADDR_MASK), level - 1, lo,
			       start > lo ? start : lo, end < lo + span ? end : lo + span);
		if (r)
			return r;
	}
	return 0;
}

int upt_walk(struct mm *mm, uint64_t start, uint64_t end, upt_leaf_fn *fn, void *ctx)
{
	struct walk_ctx w = {fn, ctx};

	if (start >= end || end > USER_HALF_END)
		return 0;
	return walk_table(&w, mm->pgd, 4, 0, start, end);
}

struct move_ctx {
	struct mm *mm;
	uint64_t from, to;
};

/* Pass 1: the destination leaf's tables exist. */
static int move_prepare(void *ctx, uint64_t va, uint64_t *pte)
{
	struct move_ctx *m = ctx;

	(void)pte;
	return upt_pte(m->mm, m->to + (va - m->from), true) ? 0 : -1;
}

/* Pass 2: the entry moves (the destination exists: pass 1 made it). */
static int move_leaf(void *ctx, uint64_t va, uint64_t *pte)
{
	struct move_ctx *m = ctx;

	*upt_pte(m->mm, m->to + (va - m->from), false) = *pte;
	*pte = 0;
	return 0;
}

int upt_move(struct mm *mm, uint64_t from, uint64_t to, uint64_t len)
{
	struct move_ctx m = {mm, from, to};

	if (upt_walk(mm, from, from + len, move_prepare, &m)) {
		/* Only empty tables were added in the destination: free them again. */
		upt_unmap(mm, to, to + len);
		return -ENOMEM;
	}
	upt_walk(mm, from, from + len, move_leaf, &m);
	/* Every source leaf is empty now: this frees the tables left empty. */
	upt_unmap(mm, from, from + len);
	return 0;
}
