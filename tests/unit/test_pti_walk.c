/*
 * The PTI self-check walks (guest-kernel/mm/pti_walk.c) over simulated page
 * tables: a correct user PGD passes, and deliberately broken ones (kernel
 * data mapped, a large page over the entry area, a wrong frame, the direct
 * map, a missing page, a kernel PGD without NX) fail, naming the address.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/mm/pti_walk.h"

#define P 0x1ull
#define W 0x2ull
#define PS 0x80ull
#define NX (1ull << 63)
#define NPOOL 32
#define POOL_BASE 0x10000000ull

#define ENTRY_TEXT 0xffffffff80101000ull /* one page */
#define ENTRY_DATA 0xffffffff80200000ull /* three pages */
#define KERNEL_DATA 0xffffffff80300000ull
#define VBASE 0xffffffff80000000ull

static uint64_t pool[NPOOL][512] __attribute__((aligned(4096)));
static unsigned used;

static uint64_t pool_phys(const uint64_t *t)
{
	return POOL_BASE + (uint64_t)(t - pool[0]) / 512 * 4096;
}

static const uint64_t *table_of(void *ctx, uint64_t phys)
{
	(void)ctx;
	if (phys < POOL_BASE || phys >= POOL_BASE + NPOOL * 4096)
		return NULL;
	return pool[(phys - POOL_BASE) / 4096];
}

static uint64_t *new_table(void)
{
	cr_assert(used < NPOOL);
	memset(pool[used], 0, sizeof(pool[used]));
	return pool[used++];
}

static unsigned idx(uint64_t va, unsigned shift)
{
	return (unsigned)(va >> shift) & 511;
}

static uint64_t *next(uint64_t *t, unsigned i)
{
	if (!(t[i] & P))
		t[i] = pool_phys(new_table()) | P | W;
	return pool[((t[i] & 0x000ffffffffff000ull) - POOL_BASE) >> 12];
}

/* Maps va -> pa at level 1 (4 KiB), 2 (2 MiB) or 3 (1 GiB). */
static void map(uint64_t *pgd, uint64_t va, uint64_t pa, int level)
{
	uint64_t *t = next(pgd, idx(va, 39));

	if (level == 3) {
		t[idx(va, 30)] = pa | P | PS;
		return;
	}
	t = next(t, idx(va, 30));
	if (level == 2) {
		t[idx(va, 21)] = pa | P | PS;
		return;
	}
	t = next(t, idx(va, 21));
	t[idx(va, 12)] = pa | P;
}

static struct pti_area areas[2];

/* A user PGD with the entry area, and the areas the kernel allows. */
static uint64_t *good_pgd(void)
{
	uint64_t *pgd;
	unsigned i;

	used = 0;
	pgd = new_table();
	map(pgd, ENTRY_TEXT, ENTRY_TEXT - VBASE, 1);
	for (i = 0; i < 3; i++)
		map(pgd, ENTRY_DATA + i * 4096, ENTRY_DATA - VBASE + i * 4096, 1);
	areas[0] = (struct pti_area){ENTRY_TEXT, ENTRY_TEXT + 4096, ENTRY_TEXT - VBASE, 0};
	areas[1] = (struct pti_area){ENTRY_DATA, ENTRY_DATA + 3 * 4096, ENTRY_DATA - VBASE, 0};
	return pgd;
}

static struct pti_walk_result walk(const uint64_t *pgd)
{
	struct pti_walk_result r = {0};

	pti_walk_user_kernel_half(pgd, table_of, NULL, areas, 2, &r);
	return r;
}

Test(pti_walk, entry_area_only_passes)
{
	struct pti_walk_result r = walk(good_pgd());

	cr_expect_eq(r.bad, 0, "bad leaf at %llx", (unsigned long long)r.first_bad_va);
	cr_expect_eq(r.leaves, 4);
	cr_expect_eq(areas[0].mapped, 4096);
	cr_expect_eq(areas[1].mapped, 3 * 4096);
}

Test(pti_walk, kernel_data_page_fails)
{
	uint64_t *pgd = good_pgd();
	struct pti_walk_result r;

	map(pgd, KERNEL_DATA, KERNEL_DATA - VBASE, 1);
	r = walk(pgd);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, KERNEL_DATA, "named %llx", (unsigned long long)r.first_bad_va);
}

Test(pti_walk, large_page_over_the_entry_area_fails)
{
	uint64_t *pgd;
	struct pti_walk_result r;

	used = 0;
	pgd = new_table();
	map(pgd, ENTRY_DATA, ENTRY_DATA - VBASE, 2); /* 2 MiB: far more than the entry data */
	areas[1] = (struct pti_area){ENTRY_DATA, ENTRY_DATA + 3 * 4096, ENTRY_DATA - VBASE, 0};
	r = (struct pti_walk_result){0};
	pti_walk_user_kernel_half(pgd, table_of, NULL, &areas[1], 1, &r);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(areas[1].mapped, 0);
}

Test(pti_walk, wrong_frame_fails)
{
	uint64_t *pgd = good_pgd();
	uint64_t *pt = next(next(next(pgd, idx(ENTRY_TEXT, 39)), idx(ENTRY_TEXT, 30)),
			    idx(ENTRY_TEXT, 21));
	struct pti_walk_result r;

	pt[idx(ENTRY_TEXT, 12)] = 0x7000000 | P; /* right address, someone else's frame */
	r = walk(pgd);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, ENTRY_TEXT);
}

Test(pti_walk, direct_map_fails_with_a_canonical_address)
{
	uint64_t *pgd = good_pgd();
	struct pti_walk_result r;

	map(pgd, 0xffff888000000000ull, 0, 3);
	r = walk(pgd);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, 0xffff888000000000ull, "named %llx",
		     (unsigned long long)r.first_bad_va);
}

Test(pti_walk, missing_entry_page_shows_in_mapped)
{
	uint64_t *pgd = good_pgd();
	uint64_t *pt = next(next(next(pgd, idx(ENTRY_DATA, 39)), idx(ENTRY_DATA, 30)),
			    idx(ENTRY_DATA, 21));

	pt[idx(ENTRY_DATA + 4096, 12)] = 0;
	cr_expect_eq(walk(pgd).bad, 0);
	cr_expect_eq(areas[1].mapped, 2 * 4096, "a hole in the entry data must be visible");
}

Test(pti_walk, unfollowable_table_fails)
{
	uint64_t *pgd = good_pgd();

	pgd[idx(0xffffc90000000000ull, 39)] = 0x5000 | P | W; /* outside the table memory */
	cr_expect_eq(walk(pgd).bad, 1);
}

Test(pti_walk, user_half_mirrored_and_nx)
{
	uint64_t kernel[512] = {0}, user[512] = {0};
	struct pti_walk_result r = {0};

	user[0] = 0x123000 | P | W;
	kernel[0] = user[0] | NX;
	user[255] = 0x456000 | P | W;
	kernel[255] = user[255] | NX;
	pti_walk_user_half(kernel, user, NX, &r);
	cr_expect_eq(r.bad, 0);
	cr_expect_eq(r.leaves, 2);

	kernel[255] &= ~NX; /* a kernel copy that would let the kernel run user code */
	r = (struct pti_walk_result){0};
	pti_walk_user_half(kernel, user, NX, &r);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, 255ull << 39);

	kernel[255] |= NX;
	user[7] = 0x789000 | P; /* only in the user PGD: not mirrored */
	r = (struct pti_walk_result){0};
	pti_walk_user_half(kernel, user, NX, &r);
	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, 7ull << 39);
}

/* espfix: one page again every 64 KiB of a window (a periodic area); any other frame there fails. */
#define ESPFIX_VA 0xffffff0000000000ull
#define ESPFIX_PA 0x5000ull

static struct pti_walk_result walk_espfix(uint64_t stray_off, uint64_t stray_pa)
{
	struct pti_area a = {ESPFIX_VA, ESPFIX_VA + (1ull << 32), ESPFIX_PA, 0, 0x10000};
	struct pti_walk_result r = {0};
	uint64_t *pgd;
	unsigned i;

	used = 0;
	pgd = new_table();
	for (i = 0; i < 8; i++)
		map(pgd, ESPFIX_VA + i * 0x10000ull + (i & 4 ? 1ull << 30 : 0), ESPFIX_PA, 1);
	if (stray_off)
		map(pgd, ESPFIX_VA + stray_off, stray_pa, 1);
	pti_walk_user_kernel_half(pgd, table_of, NULL, &a, 1, &r);
	return r;
}

Test(pti_walk, periodic_alias_passes)
{
	struct pti_walk_result r = walk_espfix(0, 0);

	cr_expect_eq(r.bad, 0, "bad leaf at %llx", (unsigned long long)r.first_bad_va);
	cr_expect_eq(r.leaves, 8);
}

Test(pti_walk, periodic_alias_other_frame_fails)
{
	/* Inside the window, not at a 64 KiB step: it would have to map ESPFIX_PA + 0x1000. */
	struct pti_walk_result r = walk_espfix(0x31000, ESPFIX_PA);

	cr_expect_eq(r.bad, 1);
	cr_expect_eq(r.first_bad_va, ESPFIX_VA + 0x31000);
}
