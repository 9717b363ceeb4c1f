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

/*
 * Gives the area set its per-prot leaves (vma.h: vma.pte, vma.pte_zero):
 * upt_prot_bits(prot), and the shared zero page read-only and
 * PTE_SW_NOFREE.  mm_create calls it once; NX is fixed at boot.
 */
void upt_vma_leaves(struct vma_set *s);

/* The table an intermediate entry points to. */
static inline uint64_t *upt_table(uint64_t e)
{
	return phys_to_virt(e & PTE_ADDR_MASK);
}

/*
 * The leaf slot for va when its three tables exist (*slot set, true), else
 * false: the fault path's walk, unrolled (PML4, PDPT, PD, then the PT's
 * slot), four loads and no loop.
 */
static inline bool upt_pte_present(struct mm *mm, uint64_t va, uint64_t **slot)
{
	uint64_t e = mm->pgd[PT_INDEX(va, PML4_SHIFT)];

	if (!(e & PTE_P))
		return false;
	e = upt_table(e)[PT_INDEX(va, PDPT_SHIFT)];
	if (!(e & PTE_P))
		return false;
	e = upt_table(e)[PT_INDEX(va, PD_SHIFT)];
	if (!(e & PTE_P))
		return false;
	*slot = &upt_table(e)[PT_INDEX(va, PAGE_SHIFT)];
	return true;
}

/* upt_pte's allocating half, out of line: creates the missing tables (NULL when out of frames). */
uint64_t *upt_pte_alloc(struct mm *mm, uint64_t va);

/* The leaf entry for va; with alloc, missing tables are created (NULL when out of frames). */
static inline uint64_t *upt_pte(struct mm *mm, uint64_t va, bool alloc)
{
	uint64_t *pte;

	if (upt_pte_present(mm, va, &pte))
		return pte;
	return alloc ? upt_pte_alloc(mm, va) : 0;
}

/*
 * Clears the leaves of [start, end) and frees their frames (except
 * PTE_SW_NOFREE ones, and PTE_SW_SHARED ones other spaces still own); the
 * caller flushes the TLB.  Page tables go by coverage: one whose span lies
 * inside [start, end) is freed without a look at its entries; a page table
 * (level 1) it covers in part is scanned outside [start, end) and freed
 * when empty; a higher table it covers in part stays (freed by a later
 * unmap that covers it, or with the address space).
 */
void upt_unmap(struct mm *mm, uint64_t start, uint64_t end);
/*
 * munmap's upt_unmap: no area lies in [floor, ceiling) (which holds
 * [start, end)), so no leaf does either, and every table whose span lies
 * inside it is freed without a scan, as Linux's free_pgtables does between
 * the neighbouring areas.
 */
void upt_unmap_area(struct mm *mm, uint64_t start, uint64_t end, uint64_t floor,
		    uint64_t ceiling);
/* upt_unmap that also counts the shared frames it let go of but others still own. */
void upt_unmap_counted(struct mm *mm, uint64_t start, uint64_t end, uint64_t *kept);

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
