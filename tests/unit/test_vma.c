/*
 * VMA arithmetic of the guest kernel (guest-kernel/mm/vma.c): merging on
 * insert, splitting on munmap and mprotect, gaps for mmap, stack of limits.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/mm/vma.h"

#define P 0x1000ull

static struct vma_set s;
static const int file_a = 1; /* any distinct address stands for an inode */

static struct vma anon(uint64_t start, uint64_t end, uint32_t prot)
{
	return (struct vma){.start = start, .end = end, .prot = prot, .kind = VMA_ANON};
}

static struct vma file(uint64_t start, uint64_t end, uint64_t pgoff)
{
	return (struct vma){.start = start, .end = end, .pgoff = pgoff, .file_end = 0x100000,
			    .file = &file_a, .prot = VMA_R, .kind = VMA_FILE};
}

static void expect(unsigned i, uint64_t start, uint64_t end, uint32_t prot)
{
	cr_assert_lt(i, s.n, "area %u missing (%u areas)", i, s.n);
	cr_assert_eq(s.v[i].start, start, "area %u start %#lx", i, (unsigned long)s.v[i].start);
	cr_assert_eq(s.v[i].end, end, "area %u end %#lx", i, (unsigned long)s.v[i].end);
	cr_assert_eq(s.v[i].prot, prot, "area %u prot %u", i, s.v[i].prot);
}

static void init(void)
{
	vma_set_init(&s);
}

TestSuite(vma, .init = init);

Test(vma, insert_sorted_and_merged)
{
	struct vma a = anon(10 * P, 12 * P, VMA_R | VMA_W);
	struct vma b = anon(14 * P, 16 * P, VMA_R | VMA_W);
	struct vma mid = anon(12 * P, 14 * P, VMA_R | VMA_W);

	cr_assert_eq(vma_insert(&s, &b), 0);
	cr_assert_eq(vma_insert(&s, &a), 0);
	cr_assert_eq(s.n, 2);
	expect(0, 10 * P, 12 * P, VMA_R | VMA_W);
	cr_assert_eq(vma_insert(&s, &mid), 0);
	cr_assert_eq(s.n, 1, "the middle joins both neighbours");
	expect(0, 10 * P, 16 * P, VMA_R | VMA_W);
}

Test(vma, no_merge_across_attributes)
{
	struct vma a = anon(10 * P, 12 * P, VMA_R);
	struct vma b = anon(12 * P, 14 * P, VMA_R | VMA_W);
	struct vma heap = anon(14 * P, 15 * P, VMA_R | VMA_W);
	struct vma sp = {.start = 15 * P, .end = 16 * P, .prot = VMA_R, .kind = VMA_SPECIAL,
			 .name = "[vdso]"};
	struct vma sp2 = sp;

	heap.kind = VMA_HEAP;
	sp2.start = 16 * P;
	sp2.end = 17 * P;
	vma_insert(&s, &a);
	vma_insert(&s, &b);
	vma_insert(&s, &heap);
	vma_insert(&s, &sp);
	vma_insert(&s, &sp2);
	cr_assert_eq(s.n, 5, "prot, kind and special areas keep them apart");
}

Test(vma, file_merge_needs_continuous_offsets)
{
	struct vma a = file(10 * P, 12 * P, 0);
	struct vma b = file(12 * P, 13 * P, 2 * P);
	struct vma c = file(13 * P, 14 * P, 7 * P);

	vma_insert(&s, &a);
	vma_insert(&s, &b);
	cr_assert_eq(s.n, 1);
	vma_insert(&s, &c);
	cr_assert_eq(s.n, 2, "offset jump: separate area");
}

Test(vma, munmap_middle_splits_file_offsets)
{
	struct vma a = file(10 * P, 20 * P, 4 * P);

	vma_insert(&s, &a);
	cr_assert_eq(vma_remove(&s, 12 * P, 15 * P), 0);
	cr_assert_eq(s.n, 2);
	expect(0, 10 * P, 12 * P, VMA_R);
	expect(1, 15 * P, 20 * P, VMA_R);
	cr_assert_eq(s.v[0].pgoff, 4 * P);
	cr_assert_eq(s.v[1].pgoff, 9 * P, "right part's file offset moves with it");
}

Test(vma, munmap_across_areas)
{
	struct vma a = anon(10 * P, 12 * P, VMA_R);
	struct vma b = anon(13 * P, 15 * P, VMA_R | VMA_W);
	struct vma c = anon(16 * P, 20 * P, VMA_R);

	vma_insert(&s, &a);
	vma_insert(&s, &b);
	vma_insert(&s, &c);
	cr_assert_eq(vma_remove(&s, 11 * P, 17 * P), 0);
	cr_assert_eq(s.n, 2);
	expect(0, 10 * P, 11 * P, VMA_R);
	expect(1, 17 * P, 20 * P, VMA_R);
	cr_assert_eq(vma_remove(&s, 0, 100 * P), 0);
	cr_assert_eq(s.n, 0);
	cr_assert_eq(vma_remove(&s, 0, 100 * P), 0, "unmapping nothing is fine");
}

Test(vma, mprotect_split_and_remerge)
{
	struct vma a = anon(10 * P, 20 * P, VMA_R | VMA_W);

	vma_insert(&s, &a);
	cr_assert_eq(vma_protect(&s, 12 * P, 14 * P, VMA_R), 0);
	cr_assert_eq(s.n, 3);
	expect(0, 10 * P, 12 * P, VMA_R | VMA_W);
	expect(1, 12 * P, 14 * P, VMA_R);
	expect(2, 14 * P, 20 * P, VMA_R | VMA_W);
	cr_assert_eq(vma_protect(&s, 12 * P, 14 * P, VMA_R | VMA_W), 0);
	cr_assert_eq(s.n, 1, "same protection again: one area");
	expect(0, 10 * P, 20 * P, VMA_R | VMA_W);
	cr_assert_eq(vma_protect(&s, 10 * P, 20 * P, 0), 0);
	expect(0, 10 * P, 20 * P, 0);
	cr_assert_eq(vma_protect(&s, 19 * P, 20 * P, VMA_R), 0);
	cr_assert_eq(s.n, 2, "split at the end only");
}

Test(vma, mprotect_across_areas_merges_them)
{
	struct vma a = anon(10 * P, 12 * P, VMA_R);
	struct vma b = anon(12 * P, 14 * P, VMA_R | VMA_W);
	struct vma c = anon(14 * P, 16 * P, VMA_R | VMA_X);

	vma_insert(&s, &a);
	vma_insert(&s, &b);
	vma_insert(&s, &c);
	cr_assert_eq(vma_protect(&s, 10 * P, 16 * P, VMA_R), 0);
	cr_assert_eq(s.n, 1);
	expect(0, 10 * P, 16 * P, VMA_R);
}

Test(vma, full_set)
{
	struct vma more = anon(2 * P, 3 * P, VMA_R);
	struct vma join = anon(21 * P, 22 * P, VMA_R);
	unsigned i;

	for (i = 0; i < VMA_MAX; i++) {
		struct vma v = anon((2 * i + 16) * P, (2 * i + 17) * P, VMA_R);

		cr_assert_eq(vma_insert(&s, &v), 0);
	}
	cr_assert_eq(vma_insert(&s, &more), VMA_ERR_FULL);
	cr_assert_eq(vma_protect(&s, 18 * P, 19 * P, VMA_R | VMA_W), 0,
		     "whole-area protect needs no room");
	cr_assert_eq(s.n, VMA_MAX);
	cr_assert_eq(vma_insert(&s, &join), 0, "a merging insert needs no room");
	cr_assert_eq(s.n, VMA_MAX - 1);
	expect(2, 20 * P, 23 * P, VMA_R);
}

Test(vma, full_set_split_refused_unchanged)
{
	unsigned i;

	for (i = 0; i < VMA_MAX; i++) {
		struct vma v = anon((4 * i + 16) * P, (4 * i + 19) * P, VMA_R);

		vma_insert(&s, &v);
	}
	cr_assert_eq(vma_remove(&s, 17 * P, 18 * P), VMA_ERR_FULL);
	cr_assert_eq(vma_protect(&s, 17 * P, 18 * P, VMA_R | VMA_W), VMA_ERR_FULL);
	cr_assert_eq(s.n, VMA_MAX);
	expect(0, 16 * P, 19 * P, VMA_R);
}

Test(vma, find_and_ranges)
{
	struct vma a = anon(10 * P, 12 * P, VMA_R);
	struct vma b = anon(14 * P, 16 * P, VMA_R | VMA_W);

	vma_insert(&s, &a);
	vma_insert(&s, &b);
	cr_assert_eq(vma_find(&s, 10 * P), 0);
	cr_assert_eq(vma_find(&s, 12 * P - 1), 0);
	cr_assert_eq(vma_find(&s, 12 * P), -1, "end is exclusive");
	cr_assert_eq(vma_find(&s, 15 * P), 1);
	cr_assert_eq(vma_find(&s, 0), -1);
	cr_assert_eq(vma_first_above(&s, 13 * P), 1);
	cr_assert_eq(vma_first_above(&s, 16 * P), 2);
	cr_assert(vma_range_free(&s, 12 * P, 14 * P));
	cr_assert(!vma_range_free(&s, 11 * P, 13 * P));
	cr_assert(!vma_range_free(&s, 0, 100 * P));
	cr_assert(vma_range_covered(&s, 10 * P, 12 * P));
	cr_assert(!vma_range_covered(&s, 10 * P, 15 * P), "hole at 12-14");
	cr_assert(vma_range_covered(&s, 14 * P + 10, 15 * P));
}

Test(vma, gap_topdown)
{
	struct vma a = anon(100 * P, 110 * P, VMA_R);
	struct vma b = anon(113 * P, 120 * P, VMA_R);

	cr_assert_eq(vma_gap_topdown(&s, 4 * P, 16 * P, 200 * P), 196 * P, "empty: below high");
	vma_insert(&s, &a);
	vma_insert(&s, &b);
	cr_assert_eq(vma_gap_topdown(&s, 4 * P, 16 * P, 120 * P), 96 * P, "3-page hole too small");
	cr_assert_eq(vma_gap_topdown(&s, 3 * P, 16 * P, 120 * P), 110 * P, "exact fit");
	cr_assert_eq(vma_gap_topdown(&s, 5 * P, 16 * P, 125 * P), 120 * P, "above everything");
	cr_assert_eq(vma_gap_topdown(&s, 5 * P, 16 * P, 115 * P), 95 * P, "high inside an area");
	cr_assert_eq(vma_gap_topdown(&s, 90 * P, 16 * P, 120 * P), 0, "nothing fits");
	cr_assert_eq(vma_gap_topdown(&s, 84 * P, 16 * P, 120 * P), 16 * P, "down to low");
	cr_assert_eq(vma_gap_topdown(&s, 0, 16 * P, 120 * P), 0, "empty request");
}
