/*
 * User page tables: the user half (PML4 slots 0-255) of an address space.
 * Leaves carry the frame and the area's permissions; intermediate entries
 * are P|W|U and leave the decision to the leaves.
 */
#ifndef EL_MM_UPT_H
#define EL_MM_UPT_H

#include "kernel.h"
#include "mm/mm.h"
#include "mm/pgtable.h"

/* Software bits of a leaf (ignored by the CPU). */
#define PTE_SW_NOFREE (1ull << 9)    /* the frame is not this space's: zero page, vDSO */
#define PTE_SW_PROTNONE (1ull << 10) /* not present only because of PROT_NONE; frame kept */
/* The frame may have other owners: frame_share.h counts them (fork of MAP_SHARED memory). */
#define PTE_SW_SHARED (1ull << 11)
/* What a permission change keeps of a leaf besides the frame. */
#define PTE_SW_KEEP (PTE_SW_NOFREE | PTE_SW_SHARED | PTE_A | PTE_D)

static inline bool pte_has_frame(uint64_t e)
{
	return (e & (PTE_P | PTE_SW_PROTNONE)) != 0;
}

/* Leaf permission bits for VMA_R/W/X (P, U, W, NX; PROTNONE for no access). */
uint64_t upt_prot_bits(uint32_t prot);

/* The leaf entry for va; with alloc, missing tables are created (NULL when out of frames). */
uint64_t *upt_pte(struct mm *mm, uint64_t va, bool alloc);

/*
 * Clears the leaves of [start, end), frees their frames (except
 * PTE_SW_NOFREE ones, and PTE_SW_SHARED ones other spaces still own) and
 * every page table left empty.  Returns the number of leaves cleared; the
 * caller flushes the TLB.
 */
uint64_t upt_unmap(struct mm *mm, uint64_t start, uint64_t end);
/* upt_unmap that also counts the shared frames it let go of but others still own. */
uint64_t upt_unmap_counted(struct mm *mm, uint64_t start, uint64_t end, uint64_t *kept);

/* Applies the permissions of prot to the leaves of [start, end); NOFREE leaves stay read-only. */
void upt_protect(struct mm *mm, uint64_t start, uint64_t end, uint32_t prot);

/*
 * Calls fn for every non-empty leaf of [start, end) in address order,
 * skipping absent tables; stops at and returns the first non-zero result.
 * fn may allocate tables outside [start, end) (upt_pte with alloc).
 */
typedef int upt_leaf_fn(void *ctx, uint64_t va, uint64_t *pte);
int upt_walk(struct mm *mm, uint64_t start, uint64_t end, upt_leaf_fn *fn, void *ctx);

/*
 * Moves the leaves of [from, from + len) to [to, to + len) (a free range
 * not overlapping it): entries move, data does not.  The tables of the new
 * range are allocated before anything moves, so on -ENOMEM nothing has.
 * The caller flushes [from, from + len).
 */
int upt_move(struct mm *mm, uint64_t from, uint64_t to, uint64_t len);

#endif
