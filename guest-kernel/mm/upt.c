/*
 * User page-table walks (upt.h).  Levels: 4 = PML4 ... 1 = page table.
 *
 *   lookup   upt_pte_present (upt.h) is the fault path's walk: four loads,
 *            unrolled, no allocation; upt_pte_alloc, out of line, makes the
 *            missing tables (the uncommon case: the first fault under a
 *            2 MiB span).
 *   leaves   upt_vma_leaves gives the area set the leaf of each prot once,
 *            so a fault writes vma.pte / vma.pte_zero (vma.h) instead of
 *            computing the bits.
 *   unmap    the higher levels visit the entries the range covers; each
 *            page table it reaches is cleared by a tight loop over its
 *            slots (clear_leaves).  Tables go by coverage: a table whose
 *            span lies inside the cleared range (or, for munmap, inside the
 *            area-free span around it: upt_unmap_area) is freed without a
 *            scan; a page table covered in part is scanned outside the range
 *            only, and freed when that part is empty too; a higher table
 *            covered in part stays.
 *   protect, walk, move   recursive walks over the covered entries.
 * Every write of a user-half PML4 entry goes through pgd_set (PTI).
 */
#include "mm/frame.h"
#include "mm/frame_share.h"
#include "mm/paging.h"
#include "mm/pti.h"
#include "mm/upt.h"
#include "mm/vma.h"
#include "sys/errno.h"

static const unsigned level_shift[5] = {0, PAGE_SHIFT, PD_SHIFT, PDPT_SHIFT, PML4_SHIFT};

#define TABLE_LINK (PTE_P | PTE_W | PTE_U) /* an intermediate entry: the leaves decide */

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

void upt_vma_leaves(struct vma_set *s)
{
	uint64_t leaf[VMA_PROTS], zero[VMA_PROTS];
	uint32_t prot;

	for (prot = 0; prot < VMA_PROTS; prot++) {
		leaf[prot] = upt_prot_bits(prot);
		zero[prot] = zero_page_phys() | PTE_SW_NOFREE | (leaf[prot] & ~PTE_W);
	}
	/* No access, no zero page: mm_fault's fast path takes pte_zero != 0 for readable. */
	zero[0] = 0;
	vma_set_leaves(s, leaf, zero);
}

/* The table under entry idx of t, made when absent (pgd: t is the pgd); NULL when out of frames. */
static uint64_t *table_or_new(struct mm *mm, uint64_t *t, unsigned idx, bool pgd)
{
	uint64_t pa;

	if (t[idx] & PTE_P)
		return upt_table(t[idx]);
	pa = frame_alloc_zeroed();
	if (!pa)
		return 0;
	mm->table_pages++;
	if (pgd)
		pgd_set(mm, idx, pa | TABLE_LINK);
	else
		t[idx] = pa | TABLE_LINK;
	return phys_to_virt(pa);
}

__attribute__((noinline, cold)) uint64_t *upt_pte_alloc(struct mm *mm, uint64_t va)
{
	uint64_t *t = table_or_new(mm, mm->pgd, PT_INDEX(va, PML4_SHIFT), true);

	if (t)
		t = table_or_new(mm, t, PT_INDEX(va, PDPT_SHIFT), false);
	if (t)
		t = table_or_new(mm, t, PT_INDEX(va, PD_SHIFT), false);
	return t ? &t[PT_INDEX(va, PAGE_SHIFT)] : 0;
}

struct unmap_ctx {
	struct mm *mm;
	uint64_t start, end;     /* the leaves cleared */
	uint64_t floor, ceiling; /* holds [start, end) and no leaf outside it: tables inside go */
	uint64_t kept;           /* shared frames other address spaces still own */
};

/* A leaf frame that is ours goes: freed unless other spaces still share it. */
static void drop_frame(struct unmap_ctx *c, uint64_t e)
{
	uint64_t pa = e & PTE_ADDR_MASK;

	c->mm->rss--;
	if ((e & PTE_SW_SHARED) && !frame_share_put(pa)) {
		c->kept++;
		return;
	}
	frame_free(pa);
}

/* Clears the slots [p, end) of one page table: munmap's per-page loop. */
static void clear_leaves(struct unmap_ctx *c, uint64_t *p, const uint64_t *end)
{
#pragma GCC unroll 4
	for (; p < end; p++) {
		uint64_t e = *p;

		*p = 0;
		/* NOFREE leaves (zero page, vDSO) own no frame of ours and count in no rss. */
		if (!(e & PTE_SW_NOFREE) && pte_has_frame(e))
			drop_frame(c, e);
	}
}

static bool slots_empty(const uint64_t *p, const uint64_t *end)
{
	for (; p < end; p++)
		if (*p)
			return false;
	return true;
}

/* [lo, lo + size) lies inside [floor, ceiling): no leaf there, every table goes. */
static bool span_goes(const struct unmap_ctx *c, uint64_t lo, uint64_t size)
{
	return lo >= c->floor && lo + size <= c->ceiling;
}

/*
 * Page table t maps [lo, lo + 2 MiB): clears its leaves in [start, end);
 * true when t may be freed.  No leaf lies in [floor, ceiling), so only the
 * slots outside it can keep t: those are scanned (none when t's span lies
 * inside it).
 */
static bool unmap_pt(struct unmap_ctx *c, uint64_t *t, uint64_t lo)
{
	uint64_t hi = lo + (1ull << PD_SHIFT);
	uint64_t from = c->start > lo ? c->start : lo, to = c->end < hi ? c->end : hi;
	unsigned below = 0, above = PT_ENTRIES;

	if (from < to)
		clear_leaves(c, t + PT_INDEX(from, PAGE_SHIFT),
			     t + PT_INDEX(from, PAGE_SHIFT) + ((to - from) >> PAGE_SHIFT));
	if (c->floor > lo)
		below = (unsigned)((c->floor - lo) >> PAGE_SHIFT);
	if (c->ceiling < hi)
		above = (unsigned)((c->ceiling - lo) >> PAGE_SHIFT);
	return slots_empty(t, t + below) && slots_empty(t + above, t + PT_ENTRIES);
}

/*
 * Table t at level 2..4 maps [lo, lo + 512 << shift), each entry 1 << shift:
 * visits the entries [start, end) touches (every entry when t's span goes)
 * and frees the tables under them that may go.  True when t may be freed;
 * the pgd (level 4) never is.
 */
static bool unmap_upper(struct unmap_ctx *c, uint64_t *t, int level, uint64_t lo)
{
	unsigned shift = level_shift[level];
	uint64_t span = 1ull << shift;
	bool whole = level < 4 && span_goes(c, lo, span * PT_ENTRIES);
	unsigned i = 0, last = PT_ENTRIES - 1;

	if (!whole) {
		if (c->end <= lo || c->start >= lo + span * PT_ENTRIES)
			return false;
		if (c->start > lo)
			i = (unsigned)((c->start - lo) >> shift);
		if (c->end < lo + span * PT_ENTRIES)
			last = (unsigned)((c->end - 1 - lo) >> shift);
	}
	for (; i <= last; i++) {
		uint64_t e = t[i], child_lo = lo + i * span;
		bool free_child;

		if (!(e & PTE_P))
			continue;
		if (level == 2)
			free_child = unmap_pt(c, upt_table(e), child_lo);
		else
			free_child = unmap_upper(c, upt_table(e), level - 1, child_lo);
		if (!free_child)
			continue;
		frame_free(e & PTE_ADDR_MASK);
		c->mm->table_pages--;
		if (level == 4)
			pgd_set(c->mm, i, 0);
		else
			t[i] = 0;
	}
	return whole;
}

static uint64_t unmap(struct mm *mm, uint64_t start, uint64_t end, uint64_t floor,
		      uint64_t ceiling)
{
	struct unmap_ctx c = {mm, start, end, floor < start ? floor : start,
			      ceiling > end ? ceiling : end, 0};

	if (start < end && end <= USER_HALF_END && c.ceiling <= USER_HALF_END)
		unmap_upper(&c, mm->pgd, 4, 0);
	return c.kept;
}

void upt_unmap_counted(struct mm *mm, uint64_t start, uint64_t end, uint64_t *kept)
{
	uint64_t k = unmap(mm, start, end, start, end);

	if (kept)
		*kept = k;
}

void upt_unmap(struct mm *mm, uint64_t start, uint64_t end)
{
	unmap(mm, start, end, start, end);
}

void upt_unmap_area(struct mm *mm, uint64_t start, uint64_t end, uint64_t floor,
		    uint64_t ceiling)
{
	unmap(mm, start, end, floor, ceiling);
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
	/* Every source leaf is empty now: this frees the page tables left empty (upt_unmap's rule). */
	upt_unmap(mm, from, from + len);
	return 0;
}
