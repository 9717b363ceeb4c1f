/*
 * Walking page tables leaf by leaf (the self-checks; PTI's checks of its
 * top-level tables are pti_walk.c).
 */
#ifndef EL_PTWALK_H
#define EL_PTWALK_H

#include "kernel.h"

/* One present leaf: virtual address, the entry, and the size it maps. */
typedef void pt_leaf_fn(void *ctx, uint64_t va, uint64_t pte, uint64_t size);

/* Visits present leaves under PML4 slots [first, last] of the table at pml4_phys. */
void pt_walk(uint64_t pml4_phys, unsigned first, unsigned last, pt_leaf_fn *fn, void *ctx);

#endif
