/*
 * Shared-frame reference counts of the guest kernel
 * (guest-kernel/mm/frame_share.c): a frame without an entry has one owner,
 * the last put says "free it", deletions keep colliding entries findable,
 * and a full table refuses instead of growing.
 */
#include <criterion/criterion.h>

#include "guest-kernel/mm/frame_share.h"

#define PA(n) ((uint64_t)(n) << 12)

static void reset(void)
{
	frame_share_reset();
}

TestSuite(frame_share, .init = reset);

Test(frame_share, absent_frame_has_one_owner)
{
	cr_assert_eq(frame_share_count(PA(77)), 1);
	cr_assert(frame_share_put(PA(77)), "a frame without an entry is its owner's to free");
	cr_assert_eq(frame_share_entries(), 0);
}

Test(frame_share, counts_down_to_the_last_owner)
{
	cr_assert_eq(frame_share_get(PA(5)), 0);
	cr_assert_eq(frame_share_count(PA(5)), 2, "fork: parent and child");
	cr_assert_eq(frame_share_get(PA(5)), 0);
	cr_assert_eq(frame_share_count(PA(5)), 3, "a second fork");
	cr_assert_not(frame_share_put(PA(5)));
	cr_assert_eq(frame_share_count(PA(5)), 2);
	cr_assert_not(frame_share_put(PA(5)), "one owner is left: it must not be freed");
	cr_assert_eq(frame_share_entries(), 0, "the entry goes with the second-last owner");
	cr_assert(frame_share_put(PA(5)), "the last owner frees it");
}

/* Removing entries must not hide the others (spread frames: few collisions). */
Test(frame_share, removal_keeps_other_entries)
{
	uint64_t f[64];
	unsigned i, n = 64, target;

	for (i = 0; i < n; i++) {
		f[i] = PA(1 + i * 4099);
		cr_assert_eq(frame_share_get(f[i]), 0);
	}
	for (target = 0; target < n; target += 2)
		cr_assert_not(frame_share_put(f[target]));
	for (i = 0; i < n; i++)
		cr_assert_eq(frame_share_count(f[i]), i % 2 ? 2 : 1, "frame %u", i);
	cr_assert_eq(frame_share_entries(), n / 2);
}

Test(frame_share, wraps_around_the_table_end)
{
	/* A table 7/8 full: long probe runs, some across the last slot; then remove every third. */
	unsigned i, n = FRAME_SHARE_MAX;

	for (i = 0; i < n; i++)
		cr_assert_eq(frame_share_get(PA(i + 1)), 0, "entry %u", i);
	for (i = 0; i < n; i += 3)
		cr_assert_not(frame_share_put(PA(i + 1)));
	for (i = 0; i < n; i++)
		cr_assert_eq(frame_share_count(PA(i + 1)), i % 3 ? 2 : 1, "frame %u", i + 1);
}

Test(frame_share, full_table_refuses)
{
	unsigned i;

	for (i = 0; i < FRAME_SHARE_MAX; i++)
		cr_assert_eq(frame_share_get(PA(i + 1)), 0);
	cr_assert_eq(frame_share_get(PA(FRAME_SHARE_MAX + 1)), -1, "fork gets ENOMEM");
	cr_assert_eq(frame_share_get(PA(1)), 0, "more owners of a known frame need no slot");
	cr_assert_eq(frame_share_count(PA(1)), 3);
}
