/* Guest RAM layout and the checked GPA translator (vmm/gpa.c): no KVM needed. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "gpa.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static struct el_mem mem;
static char err[256];

static void mem_teardown(void)
{
	el_mem_free(&mem);
}

TestSuite(gpa, .fini = mem_teardown);

Test(gpa, small_ram_is_one_low_slot)
{
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mem.nr_slots, 1);
	cr_assert_eq(mem.slot[0].gpa, 0);
	cr_assert_eq(mem.slot[0].size, 64 * MiB);
	cr_assert_eq(el_mem_low_end(&mem), 64 * MiB);
}

Test(gpa, inside_and_edges)
{
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(el_mem_gpa(&mem, 0, 1), mem.base);
	cr_assert_eq(el_mem_gpa(&mem, 0x1000, 0x1000), mem.base + 0x1000);
	cr_assert_eq(el_mem_gpa(&mem, 64 * MiB - 1, 1), mem.base + 64 * MiB - 1);
	cr_assert_eq(el_mem_gpa(&mem, 0, 64 * MiB), mem.base, "the whole slot is one range");
	cr_assert_not_null(el_mem_gpa(&mem, 100, 0), "empty range inside RAM");
}

Test(gpa, outside_and_crossing)
{
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
	cr_assert_null(el_mem_gpa(&mem, 64 * MiB - 1, 2), "crosses the end of RAM");
	cr_assert_null(el_mem_gpa(&mem, 64 * MiB, 1), "just past RAM");
	cr_assert_null(el_mem_gpa(&mem, 64 * MiB, 0), "empty range past RAM");
	cr_assert_null(el_mem_gpa(&mem, 0, 64 * MiB + 1));
	cr_assert_null(el_mem_gpa(&mem, 0xfee00000, 4), "LAPIC page");
}

Test(gpa, overflow_safe)
{
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
	cr_assert_null(el_mem_gpa(&mem, UINT64_MAX, 2));
	cr_assert_null(el_mem_gpa(&mem, UINT64_MAX - 1, 4));
	cr_assert_null(el_mem_gpa(&mem, 1, UINT64_MAX), "gpa + len wraps to 0");
	cr_assert_null(el_mem_gpa(&mem, 0x1000, UINT64_MAX - 0xfff));
}

Test(gpa, large_ram_skips_the_hole)
{
	/* MAP_NORESERVE: 5 GiB of address space, nothing touched. */
	cr_assert_eq(el_mem_alloc(&mem, 5 * GiB, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mem.nr_slots, 2);
	cr_assert_eq(mem.slot[0].size, 3 * GiB);
	cr_assert_eq(mem.slot[1].gpa, 4 * GiB);
	cr_assert_eq(mem.slot[1].size, 2 * GiB);
	cr_assert_eq(el_mem_low_end(&mem), 3 * GiB);
	cr_assert_eq(el_mem_gpa(&mem, 3 * GiB - 1, 1), mem.base + 3 * GiB - 1);
	cr_assert_null(el_mem_gpa(&mem, 3 * GiB, 1), "3-4 GiB is the hole");
	cr_assert_null(el_mem_gpa(&mem, 4 * GiB - 1, 1));
	cr_assert_null(el_mem_gpa(&mem, 3 * GiB - 1, 2), "no range spans the hole");
	cr_assert_eq(el_mem_gpa(&mem, 4 * GiB, 1), mem.base + 3 * GiB);
	cr_assert_eq(el_mem_gpa(&mem, 6 * GiB - 8, 8), mem.base + 5 * GiB - 8);
	cr_assert_null(el_mem_gpa(&mem, 6 * GiB - 8, 9));
	cr_assert_null(el_mem_gpa(&mem, 6 * GiB, 1));
}

Test(gpa, bad_sizes_are_refused_with_the_fix)
{
	cr_assert_neq(el_mem_alloc(&mem, 1 * MiB, err, sizeof(err)), 0);
	cr_assert(strstr(err, "--memory"), "%s", err);
	cr_assert_neq(el_mem_alloc(&mem, 64 * MiB + 1, err, sizeof(err)), 0);
	cr_assert(strstr(err, "multiple of 4 KiB"), "%s", err);
	cr_assert_neq(el_mem_alloc(&mem, EL_MEM_MAX + 4096, err, sizeof(err)), 0);
}
