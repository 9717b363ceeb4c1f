/*
 * /proc/self/smaps per-area lines of the guest kernel
 * (guest-kernel/fs/smaps_format.c) against text as Linux 6.x prints it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/fs/smaps_format.h"

static char buf[2048];

#define KB(n) ((uint64_t)(n) << 10)
#define PSS_KB(n) (KB(n) << PSS_SHIFT)

Test(smaps_format, heap_as_linux_prints_it)
{
	struct smaps_counts c = {
		.size = KB(268), .rss = KB(56), .pss = PSS_KB(56), .pss_dirty = PSS_KB(56),
		.private_dirty = KB(56), .referenced = KB(56), .anonymous = KB(56),
		.vmflags = SMAPS_FLAG(SMAPS_RD) | SMAPS_FLAG(SMAPS_WR) | SMAPS_FLAG(SMAPS_MR) |
			   SMAPS_FLAG(SMAPS_MW) | SMAPS_FLAG(SMAPS_ME) | SMAPS_FLAG(SMAPS_AC),
	};
	static const char want[] =
		"Size:                268 kB\n"
		"KernelPageSize:        4 kB\n"
		"MMUPageSize:           4 kB\n"
		"Rss:                  56 kB\n"
		"Pss:                  56 kB\n"
		"Pss_Dirty:            56 kB\n"
		"Shared_Clean:          0 kB\n"
		"Shared_Dirty:          0 kB\n"
		"Private_Clean:         0 kB\n"
		"Private_Dirty:        56 kB\n"
		"Referenced:           56 kB\n"
		"Anonymous:            56 kB\n"
		"KSM:                   0 kB\n"
		"LazyFree:              0 kB\n"
		"AnonHugePages:         0 kB\n"
		"ShmemPmdMapped:        0 kB\n"
		"FilePmdMapped:         0 kB\n"
		"Shared_Hugetlb:        0 kB\n"
		"Private_Hugetlb:       0 kB\n"
		"Swap:                  0 kB\n"
		"SwapPss:               0 kB\n"
		"Locked:                0 kB\n"
		"THPeligible:           0\n"
		"VmFlags: rd wr mr mw me ac \n";
	size_t n = smaps_format(buf, sizeof(buf), &c);

	cr_assert_str_eq(buf, want);
	cr_assert_eq(n, strlen(want));
}

Test(smaps_format, vmflags_in_linux_bit_order)
{
	struct smaps_counts c = {.vmflags = SMAPS_FLAG(SMAPS_DD) | SMAPS_FLAG(SMAPS_DE) |
					    SMAPS_FLAG(SMAPS_IO) | SMAPS_FLAG(SMAPS_PF) |
					    SMAPS_FLAG(SMAPS_MR) | SMAPS_FLAG(SMAPS_RD)};

	smaps_format(buf, sizeof(buf), &c);
	cr_assert(strstr(buf, "\nVmFlags: rd mr pf io de dd \n"), "[vvar] as Linux: %s", buf);
}

Test(smaps_format, fractional_pss_rounds_down_and_wide_values_grow)
{
	/* Three pages each shared by two: 6 kB Pss; a 100 GiB area overflows 8 columns. */
	struct smaps_counts c = {.size = KB(100ull << 20), .pss = PSS_KB(12) / 2};

	smaps_format(buf, sizeof(buf), &c);
	cr_assert(strstr(buf, "Size:           104857600 kB\n"), "%s", buf);
	cr_assert(strstr(buf, "\nPss:                   6 kB\n"), "%s", buf);
}

Test(smaps_format, truncates_like_snprintf)
{
	struct smaps_counts c = {0};
	char small[16];
	size_t full = smaps_format(buf, sizeof(buf), &c);

	cr_assert_eq(smaps_format(small, sizeof(small), &c), full);
	cr_assert_eq(strlen(small), sizeof(small) - 1);
	cr_assert_eq(memcmp(small, buf, sizeof(small) - 1), 0);
}
