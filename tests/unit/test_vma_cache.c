/*
 * The fault path's helpers in the VMA set (guest-kernel/mm/vma.c): the
 * last-hit cache every mutator resets, and the per-area leaf bits every
 * writer of prot (insert, protect with its splits and merges, move) keeps
 * equal to the set's per-prot tables.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "guest-kernel/mm/vma.h"

#define P 0x1000ull
#define LEAF(p) (0x100ull + (p))
#define ZERO(p) (0x200ull + (p))

static struct vma_set s;
static const int inode = 1;

static void init(void)
{
	uint64_t leaf[VMA_PROTS], zero[VMA_PROTS];
	unsigned p;

	for (p = 0; p < VMA_PROTS; p++) {
		leaf[p] = LEAF(p);
		zero[p] = ZERO(p);
	}
	vma_set_init(&s);
	vma_set_leaves(&s, leaf, zero);
}

TestSuite(vma_cache, .init = init);

static struct vma area(uint64_t start, uint64_t end, uint32_t prot, uint32_t kind)
{
	struct vma v = {.start = start, .end = end, .prot = prot, .kind = kind};

	if (kind == VMA_FILE) {
		v.file = &inode;
		v.file_end = UINT64_MAX;
		v.pgoff = start;
	}
	return v;
}

/* Every area's bits are the tables' for its prot; pte_zero only for zero-page kinds. */
static void expect_bits(void)
{
	unsigned i;

	for (i = 0; i < s.n; i++) {
		const struct vma *v = &s.v[i];
		uint64_t zero = (VMA_ZERO_PAGE_KINDS >> v->kind) & 1 ? ZERO(v->prot & 7) : 0;

		cr_assert_eq(v->pte, LEAF(v->prot & 7), "area %u (prot %u): pte %#lx", i, v->prot,
			     (unsigned long)v->pte);
		cr_assert_eq(v->pte_zero, zero, "area %u (kind %u prot %u): pte_zero %#lx", i,
			     v->kind, v->prot, (unsigned long)v->pte_zero);
	}
}

/* The cache never names an area other than the one holding addr. */
static void expect_cache_sound(uint64_t addr)
{
	const struct vma *c = vma_cached(&s, addr);
	int i = vma_find(&s, addr);

	cr_assert(s.hit == VMA_MAX || s.hit < s.n, "hit %u with %u areas", s.hit, s.n);
	if (c)
		cr_assert_eq(c, &s.v[i], "cached area for %#lx is not the one holding it",
			     (unsigned long)addr);
}

Test(vma_cache, bits_follow_insert_and_kind)
{
	struct vma a = area(10 * P, 12 * P, VMA_R | VMA_W, VMA_ANON);
	struct vma f = area(20 * P, 22 * P, VMA_R, VMA_FILE);
	struct vma sh = area(30 * P, 32 * P, VMA_R | VMA_W, VMA_ANON_SHARED);
	struct vma st = area(40 * P, 42 * P, VMA_R | VMA_W | VMA_X, VMA_STACK);
	struct vma h = area(50 * P, 52 * P, VMA_R, VMA_HEAP);
	struct vma sp = area(60 * P, 61 * P, VMA_R | VMA_X, VMA_SPECIAL);

	/* Callers' values are overwritten: only the tables count. */
	a.pte = 0xdead;
	a.pte_zero = 0xbeef;
	cr_assert_eq(vma_insert(&s, &a), 0);
	cr_assert_eq(vma_insert(&s, &f), 0);
	cr_assert_eq(vma_insert(&s, &sh), 0);
	cr_assert_eq(vma_insert(&s, &st), 0);
	cr_assert_eq(vma_insert(&s, &h), 0);
	cr_assert_eq(vma_insert(&s, &sp), 0);
	cr_assert_eq(s.n, 6);
	expect_bits();
	cr_assert_eq(s.v[1].pte_zero, 0, "file pages never read the zero page");
	cr_assert_eq(s.v[5].pte_zero, 0, "special areas never read the zero page");
}

Test(vma_cache, bits_follow_protect_split_merge_move)
{
	struct vma a = area(10 * P, 20 * P, VMA_R | VMA_W, VMA_ANON);

	vma_insert(&s, &a);
	cr_assert_eq(vma_protect(&s, 12 * P, 14 * P, VMA_R), 0);
	cr_assert_eq(s.n, 3);
	expect_bits();
	cr_assert_eq(s.v[1].pte, LEAF(VMA_R));
	cr_assert_eq(vma_protect(&s, 12 * P, 14 * P, VMA_R | VMA_W), 0);
	cr_assert_eq(s.n, 1, "merged again");
	expect_bits();
	cr_assert_eq(vma_protect(&s, 10 * P, 20 * P, 0), 0);
	expect_bits();
	cr_assert_eq(s.v[0].pte_zero, ZERO(0));
	cr_assert_eq(vma_protect(&s, 15 * P, 16 * P, VMA_R | VMA_X), 0);
	expect_bits();
	cr_assert_eq(vma_move(&s, 15 * P, P, 40 * P, 2 * P, 0), 0);
	expect_bits();
	cr_assert_eq(s.v[s.n - 1].start, 40 * P);
	cr_assert_eq(s.v[s.n - 1].pte, LEAF(VMA_R | VMA_X));
	vma_expand(&s, s.n - 1, 45 * P);
	expect_bits();
}

Test(vma_cache, leaves_rederive_existing_areas)
{
	struct vma a = area(10 * P, 20 * P, VMA_R | VMA_W, VMA_HEAP);
	uint64_t leaf[VMA_PROTS] = {0}, zero[VMA_PROTS] = {0};

	vma_insert(&s, &a);
	leaf[VMA_R | VMA_W] = 0x77;
	zero[VMA_R | VMA_W] = 0x88;
	vma_set_leaves(&s, leaf, zero);
	cr_assert_eq(s.v[0].pte, 0x77);
	cr_assert_eq(s.v[0].pte_zero, 0x88);
}

Test(vma_cache, lookup_remembers_and_every_mutator_forgets)
{
	struct vma a = area(10 * P, 20 * P, VMA_R | VMA_W, VMA_ANON);
	struct vma b = area(30 * P, 40 * P, VMA_R | VMA_W, VMA_ANON);
	struct vma c = area(50 * P, 60 * P, VMA_R, VMA_ANON);

	cr_assert_null(vma_cached(&s, 0), "an empty set caches nothing (not even address 0)");
	vma_insert(&s, &a);
	vma_insert(&s, &b);
	cr_assert_eq(s.hit, VMA_MAX);
	cr_assert_eq(vma_lookup(&s, 35 * P), 1);
	cr_assert_eq(s.hit, 1);
	cr_assert_eq(vma_cached(&s, 31 * P), &s.v[1]);
	cr_assert_null(vma_cached(&s, 15 * P), "another area is not the cached one");
	cr_assert_null(vma_cached(&s, 40 * P), "end is outside");
	cr_assert_eq(vma_lookup(&s, 25 * P), -1);
	cr_assert_eq(s.hit, 1, "a miss keeps the last hit");

	cr_assert_eq(vma_insert(&s, &c), 0);
	cr_assert_eq(s.hit, VMA_MAX, "insert");
	vma_lookup(&s, 35 * P);
	cr_assert_eq(vma_remove(&s, 32 * P, 33 * P), 0);
	cr_assert_eq(s.hit, VMA_MAX, "remove");
	vma_lookup(&s, 35 * P);
	cr_assert_eq(vma_protect(&s, 34 * P, 36 * P, VMA_R), 0);
	cr_assert_eq(s.hit, VMA_MAX, "protect");
	vma_lookup(&s, 55 * P);
	vma_expand(&s, (unsigned)vma_find(&s, 55 * P), 62 * P);
	cr_assert_eq(s.hit, VMA_MAX, "expand");
	vma_lookup(&s, 55 * P);
	cr_assert_eq(vma_move(&s, 50 * P, 2 * P, 80 * P, 2 * P, 0), 0);
	cr_assert_eq(s.hit, VMA_MAX, "move");
	vma_lookup(&s, 81 * P);
	vma_set_clear(&s);
	cr_assert_eq(s.hit, VMA_MAX, "clear");
	cr_assert_null(vma_cached(&s, 81 * P));
}

Test(vma_cache, grow_down_becomes_the_hit)
{
	struct vma st = area(100 * P, 110 * P, VMA_R | VMA_W, VMA_STACK);

	vma_insert(&s, &st);
	vma_grow_down(&s, 0, 90 * P);
	cr_assert_eq(s.v[0].start, 90 * P);
	cr_assert_eq(vma_cached(&s, 95 * P), &s.v[0]);
}

Test(vma_cache, a_copied_set_is_consistent)
{
	struct vma a = area(10 * P, 20 * P, VMA_R | VMA_W, VMA_ANON);
	static struct vma_set copy;

	vma_insert(&s, &a);
	vma_lookup(&s, 12 * P);
	copy = s;
	cr_assert_eq(vma_cached(&copy, 12 * P), &copy.v[0], "fork's copy caches its own area");
}

/* Random operations: the cache stays sound and the bits right after each. */
Test(vma_cache, random_operations_keep_both)
{
	unsigned step;

	srand(11);
	for (step = 0; step < 20000; step++) {
		uint64_t a = (uint64_t)(rand() % 200) * P, len = (uint64_t)(rand() % 20 + 1) * P;
		uint32_t prot = (uint32_t)(rand() % 8), kind = (uint32_t)(rand() % 3);
		struct vma v = area(a, a + len, prot, kind == 2 ? VMA_FILE : kind);

		switch (rand() % 6) {
		case 0:
			if (vma_range_free(&s, a, a + len))
				vma_insert(&s, &v);
			break;
		case 1:
			vma_remove(&s, a, a + len);
			break;
		case 2:
			vma_protect(&s, a, a + len, prot);
			break;
		case 3: {
			int i = vma_find(&s, a);

			if (i >= 0 && vma_can_expand(&s, (unsigned)i, len, 400 * P))
				vma_expand(&s, (unsigned)i, s.v[i].end + len);
			break;
		}
		case 4: {
			int i = vma_find(&s, a);
			uint64_t to = (uint64_t)(rand() % 200 + 200) * P;

			if (i >= 0 && len <= s.v[i].end - a && vma_range_free(&s, to, to + len))
				vma_move(&s, a, len, to, len, rand() % 2);
			break;
		}
		default:
			vma_lookup(&s, a);
			break;
		}
		expect_bits();
		expect_cache_sound(a);
		expect_cache_sound((uint64_t)(rand() % 420) * P);
	}
}
