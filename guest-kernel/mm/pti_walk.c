/*
 * The PTI table walks of pti_walk.h.  The entry bits are spelled out here
 * (not taken from pgtable.h) to keep the file free of kernel headers.
 */
#include "pti_walk.h"

#define E_P 0x1ull
#define E_PS 0x80ull
#define E_NX (1ull << 63)
#define E_ADDR 0x000ffffffffff000ull
#define E_ADDR_2M 0x000fffffffe00000ull
#define E_ADDR_1G 0x000fffffc0000000ull

static const unsigned shift_of[5] = {0, 12, 21, 30, 39};

static void note_bad(struct pti_walk_result *r, uint64_t va, uint64_t e)
{
	if (!r->bad++) {
		r->first_bad_va = va;
		r->first_bad_pte = e;
	}
}

/* The leaf [va, va + size) -> pa lies inside one area, at the area's frame. */
static int leaf_allowed(struct pti_area *areas, unsigned n, uint64_t va, uint64_t size,
			uint64_t pa)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct pti_area *a = &areas[i];

		if (va >= a->start && va < a->end && size <= a->end - va) {
			uint64_t off = a->period ? (va - a->start) % a->period : va - a->start;

			if (pa != a->phys + off || (a->period && off + size > a->period))
				return 0;
			a->mapped += size;
			return 1;
		}
	}
	return 0;
}

struct walk {
	pti_table_fn *table;
	void *ctx;
	struct pti_area *areas;
	unsigned n;
	struct pti_walk_result *r;
};

static void walk_level(const struct walk *w, const uint64_t *t, int level, uint64_t base,
		       unsigned first)
{
	unsigned i;

	for (i = first; i < 512; i++) {
		uint64_t e = t[i], va = base + ((uint64_t)i << shift_of[level]);
		uint64_t size = 1ull << shift_of[level], pa;
		const uint64_t *next;

		if (!(e & E_P))
			continue;
		/* Kernel-half addresses are the sign extension of bit 47. */
		if (level == 4 && (va & (1ull << 47)))
			va |= 0xffff000000000000ull;
		if (level == 1 || ((level == 2 || level == 3) && (e & E_PS))) {
			pa = e & (level == 1 ? E_ADDR : level == 2 ? E_ADDR_2M : E_ADDR_1G);
			w->r->leaves++;
			if (!leaf_allowed(w->areas, w->n, va, size, pa))
				note_bad(w->r, va, e);
			continue;
		}
		/* The large-page bit is reserved at the top level: count it, do not follow. */
		next = level == 4 && (e & E_PS) ? 0 : w->table(w->ctx, e & E_ADDR);
		if (!next) {
			note_bad(w->r, va, e);
			continue;
		}
		walk_level(w, next, level - 1, va, 0);
	}
}

void pti_walk_user_kernel_half(const uint64_t *user_pgd, pti_table_fn *table, void *ctx,
			       struct pti_area *areas, unsigned nr_areas,
			       struct pti_walk_result *r)
{
	struct walk w = {table, ctx, areas, nr_areas, r};

	walk_level(&w, user_pgd, 4, 0, 256);
}

void pti_walk_user_half(const uint64_t *kernel_pgd, const uint64_t *user_pgd, uint64_t nx_bit,
			struct pti_walk_result *r)
{
	unsigned i;

	for (i = 0; i < 256; i++) {
		uint64_t k = kernel_pgd[i], u = user_pgd[i], va = (uint64_t)i << 39;

		if (!(k & E_P) && !(u & E_P))
			continue;
		r->leaves++;
		if ((k & ~E_NX) != u || (nx_bit && !(k & nx_bit)))
			note_bad(r, va, k);
	}
}
