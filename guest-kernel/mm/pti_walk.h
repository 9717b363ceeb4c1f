/*
 * Checks of the two top-level tables of a PTI address space, as pure code
 * (only <stdint.h>) over any table memory: the kernel's self-checks walk
 * the real tables through the direct map, tests/unit/test_pti_walk.c walks
 * simulated ones, including deliberately broken ones.
 */
#ifndef EL_MM_PTI_WALK_H
#define EL_MM_PTI_WALK_H

#include <stdint.h>

/*
 * A kernel range the user PGD may map: [start, end) onto phys + (va - start),
 * or with a period onto phys + (va - start) % period (aliases).
 * The walk adds the bytes it finds mapped there to `mapped`.
 */
struct pti_area {
	uint64_t start, end;
	uint64_t phys;
	uint64_t mapped;
	uint64_t period; /* not 0: the same pages again every `period` bytes (espfix) */
};

struct pti_walk_result {
	uint64_t leaves;       /* present leaves seen */
	uint64_t bad;          /* leaves (or top-level entries) that break the rule */
	uint64_t first_bad_va; /* the first of them */
	uint64_t first_bad_pte;
};

/* Table memory of a physical address (the direct map, or a test's array). */
typedef const uint64_t *pti_table_fn(void *ctx, uint64_t phys);

/*
 * The kernel half (slots 256-511) of a user PGD maps nothing but the
 * areas: every present leaf (4 KiB, 2 MiB or 1 GiB) lies inside one area
 * and maps the frame the area says.
 */
void pti_walk_user_kernel_half(const uint64_t *user_pgd, pti_table_fn *table, void *ctx,
			       struct pti_area *areas, unsigned nr_areas,
			       struct pti_walk_result *r);

/*
 * The user half (slots 0-255): the user PGD's entries equal the kernel
 * PGD's without NX, and every present kernel-PGD entry carries nx_bit (the
 * PTE NX bit, or 0 when the CPU has no NX: then only the mirroring counts).
 */
void pti_walk_user_half(const uint64_t *kernel_pgd, const uint64_t *user_pgd, uint64_t nx_bit,
			struct pti_walk_result *r);

#endif
