/*
 * The area arithmetic behind mremap and Linux's refusal to split special
 * mappings (guest-kernel/mm/vma.c): in-place growth, moves with the file
 * offset following, DONTUNMAP, [heap]/[stack] losing their role, the room
 * check.
 */
#include <criterion/criterion.h>

#include "guest-kernel/mm/vma.h"

#define P 0x1000ull

static struct vma_set s;
static const int file_a = 1;

static struct vma area(uint64_t start, uint64_t end, uint32_t kind)
{
	return (struct vma){.start = start, .end = end, .prot = VMA_R | VMA_W, .kind = kind};
}

static void add(struct vma v)
{
	cr_assert_eq(vma_insert(&s, &v), 0);
}

static void init(void)
{
	vma_set_init(&s);
}

TestSuite(vma_remap, .init = init);

Test(vma_remap, special_areas_are_never_cut)
{
	struct vma vdso = area(10 * P, 12 * P, VMA_SPECIAL);

	vdso.name = "[vdso]";
	add(vdso);
	add(area(20 * P, 30 * P, VMA_ANON));
	cr_assert(vma_cuts_special(&s, 10 * P, 11 * P), "the first page only");
	cr_assert(vma_cuts_special(&s, 11 * P, 13 * P), "the last page and beyond");
	cr_assert_not(vma_cuts_special(&s, 10 * P, 12 * P), "the whole area");
	cr_assert_not(vma_cuts_special(&s, 5 * P, 40 * P), "a range around it");
	cr_assert_not(vma_cuts_special(&s, 21 * P, 22 * P), "an ordinary area may be cut");
}

Test(vma_remap, expand_only_into_a_free_gap)
{
	add(area(10 * P, 12 * P, VMA_ANON));
	add(area(15 * P, 16 * P, VMA_FILE));
	cr_assert(vma_can_expand(&s, 0, 3 * P, 0x7ffffffff000ull), "exactly up to the next area");
	cr_assert_not(vma_can_expand(&s, 0, 4 * P, 0x7ffffffff000ull), "into the next area");
	cr_assert(vma_can_expand(&s, 1, 10 * P, 0x7ffffffff000ull), "the last area");
	cr_assert_not(vma_can_expand(&s, 1, 10 * P, 20 * P), "beyond the limit");
	cr_assert_not(vma_can_expand(&s, 1, UINT64_MAX - 3 * P, UINT64_MAX), "wrapping");
	cr_assert_not(vma_can_expand(&s, 2, P, UINT64_MAX), "no such area");
}

Test(vma_remap, expand_merges_with_a_compatible_neighbour)
{
	add(area(10 * P, 12 * P, VMA_ANON));
	add(area(15 * P, 16 * P, VMA_ANON));
	vma_expand(&s, 0, 15 * P);
	cr_assert_eq(s.n, 1);
	cr_assert_eq(s.v[0].start, 10 * P);
	cr_assert_eq(s.v[0].end, 16 * P);
}

Test(vma_remap, move_keeps_attributes_and_file_offset)
{
	struct vma f = {.start = 10 * P, .end = 20 * P, .pgoff = 3 * P, .file_end = 100 * P,
			.file = &file_a, .prot = VMA_R, .kind = VMA_FILE};

	add(f);
	cr_assert_eq(vma_move(&s, 12 * P, 2 * P, 50 * P, 4 * P, 0), 0);
	cr_assert_eq(s.n, 3, "the source split in two, the moved part alone");
	cr_assert_eq(s.v[0].end, 12 * P);
	cr_assert_eq(s.v[1].start, 14 * P);
	cr_assert_eq(s.v[1].pgoff, 7 * P, "the right part keeps its own offset");
	cr_assert_eq(s.v[2].start, 50 * P);
	cr_assert_eq(s.v[2].end, 54 * P, "grown while moving");
	cr_assert_eq(s.v[2].pgoff, 5 * P, "the file offset follows the moved range");
	cr_assert_eq(s.v[2].file, &file_a);
	cr_assert_eq(s.v[2].prot, VMA_R);
}

Test(vma_remap, dontunmap_keeps_the_source)
{
	add(area(10 * P, 12 * P, VMA_ANON));
	cr_assert_eq(vma_move(&s, 10 * P, 2 * P, 40 * P, 2 * P, 1), 0);
	cr_assert_eq(s.n, 2);
	cr_assert_eq(s.v[0].start, 10 * P);
	cr_assert_eq(s.v[0].end, 12 * P);
	cr_assert_eq(s.v[1].start, 40 * P);
}

Test(vma_remap, heap_and_stack_become_anonymous_when_moved)
{
	add(area(10 * P, 12 * P, VMA_HEAP));
	add(area(30 * P, 32 * P, VMA_STACK));
	cr_assert_eq(vma_move(&s, 10 * P, 2 * P, 50 * P, 2 * P, 0), 0);
	cr_assert_eq(vma_move(&s, 30 * P, 2 * P, 60 * P, 2 * P, 0), 0);
	cr_assert_eq(s.n, 2);
	cr_assert_eq(s.v[0].kind, VMA_ANON);
	cr_assert_eq(s.v[1].kind, VMA_ANON);
}

Test(vma_remap, moved_area_merges_with_neighbours)
{
	add(area(40 * P, 50 * P, VMA_ANON));
	add(area(10 * P, 12 * P, VMA_ANON));
	cr_assert_eq(vma_move(&s, 10 * P, 2 * P, 50 * P, 2 * P, 0), 0);
	cr_assert_eq(s.n, 1);
	cr_assert_eq(s.v[0].start, 40 * P);
	cr_assert_eq(s.v[0].end, 52 * P);
}

Test(vma_remap, bad_range_and_no_room)
{
	unsigned i;

	add(area(10 * P, 12 * P, VMA_ANON));
	cr_assert_eq(vma_move(&s, 20 * P, P, 40 * P, P, 0), VMA_ERR_RANGE, "no area there");
	cr_assert_eq(vma_move(&s, 11 * P, 2 * P, 40 * P, P, 0), VMA_ERR_RANGE, "past the area");
	for (i = 1; s.n < VMA_MAX - 1; i++) {
		struct vma v = area((100 + 2 * i) * P, (101 + 2 * i) * P, VMA_ANON);

		add(v);
	}
	cr_assert_eq(vma_move(&s, 10 * P, P, 4000 * P, P, 0), VMA_ERR_FULL);
	cr_assert_eq(s.v[0].end, 12 * P, "unchanged");
}
