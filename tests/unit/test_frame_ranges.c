/*
 * Free physical memory for the guest kernel's frame allocator
 * (guest-kernel/mm/frame_ranges.c): RAM minus reserved, page-aligned.
 */
#include <criterion/criterion.h>

#include "guest-kernel/mm/frame_ranges.h"

#define MB (1ull << 20)

static struct fr_range out[8];

static void expect(size_t n, size_t got, const struct fr_range *want)
{
	cr_assert_eq(got, n, "%zu ranges, expected %zu", got, n);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(out[i].start, want[i].start, "range %zu start %#llx", i,
			     (unsigned long long)out[i].start);
		cr_assert_eq(out[i].end, want[i].end, "range %zu end %#llx", i,
			     (unsigned long long)out[i].end);
	}
}

Test(frame_ranges, pvh_layout)
{
	/* The entrylab VMM: one RAM range from 0; low 1 MiB + image, and an initrd at the top. */
	struct fr_range ram[] = {{0, 256 * MB}};
	struct fr_range res[] = {{0, 0x180000}, {0x7000, 0x8000}, {250 * MB + 0x123, 256 * MB}};
	int dropped = 1;
	size_t n = fr_ranges_build(ram, 1, res, 3, out, 8, &dropped);

	expect(1, n, (struct fr_range[]){{0x180000, 250 * MB}});
	cr_assert_eq(dropped, 0);
	cr_assert_eq(fr_ranges_bytes(out, n), 250 * MB - 0x180000);
}

Test(frame_ranges, alignment)
{
	/* RAM shrinks inwards, reserved grows outwards. */
	struct fr_range ram[] = {{0x100001, 0x900fff}};
	struct fr_range res[] = {{0x400010, 0x400020}};
	size_t n = fr_ranges_build(ram, 1, res, 1, out, 8, NULL);

	expect(2, n, (struct fr_range[]){{0x101000, 0x400000}, {0x401000, 0x900000}});
}

Test(frame_ranges, qemu_e820_and_holes)
{
	struct fr_range ram[] = {{MB, 128 * MB}, {0, 0x9fc00}, {4096ull * MB, 4352ull * MB}};
	struct fr_range res[] = {{0, 2 * MB}, {100 * MB, 101 * MB}, {0xfffff000, 0x100001000}};
	size_t n = fr_ranges_build(ram, 3, res, 3, out, 8, NULL);

	expect(3, n,
	       (struct fr_range[]){{2 * MB, 100 * MB}, {101 * MB, 128 * MB},
				   {4096ull * MB + 0x1000, 4352ull * MB}});
}

Test(frame_ranges, overlapping_ram_merges)
{
	struct fr_range ram[] = {{0x200000, 0x400000}, {0x300000, 0x500000}, {0x500000, 0x600000}};
	size_t n = fr_ranges_build(ram, 3, NULL, 0, out, 8, NULL);

	expect(1, n, (struct fr_range[]){{0x200000, 0x600000}});
}

Test(frame_ranges, everything_reserved_or_empty)
{
	struct fr_range ram[] = {{MB, 2 * MB}, {5 * MB, 5 * MB}, {9 * MB, 8 * MB}};
	struct fr_range res[] = {{0, 3 * MB}, {10 * MB, 9 * MB}};

	cr_assert_eq(fr_ranges_build(ram, 3, res, 2, out, 8, NULL), 0);
}

Test(frame_ranges, more_pieces_than_room)
{
	struct fr_range ram[] = {{0, 64 * MB}};
	struct fr_range res[] = {{MB, 2 * MB}, {3 * MB, 4 * MB}, {5 * MB, 6 * MB}};
	int dropped = 0;
	size_t n = fr_ranges_build(ram, 1, res, 3, out, 2, &dropped);

	cr_assert_eq(n, 2);
	cr_assert_eq(dropped, 1);
	cr_assert_eq(out[0].start, 0);
	cr_assert_eq(out[1].start, 2 * MB, "the lowest pieces are kept");
}

Test(frame_ranges, top_of_address_space)
{
	struct fr_range ram[] = {{UINT64_MAX - 0x3000 + 1, UINT64_MAX}};
	size_t n = fr_ranges_build(ram, 1, NULL, 0, out, 8, NULL);

	expect(1, n, (struct fr_range[]){{UINT64_MAX - 0x3000 + 1, UINT64_MAX & ~0xfffull}});
}
