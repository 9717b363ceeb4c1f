/*
 * Virtual memory areas of an address space: a sorted array of
 * non-overlapping [start, end) ranges with protection, kind and backing.
 * This file is the arithmetic only (find, gaps, insert with merging,
 * remove and protect with splitting); page tables are mm/upt.c's.
 *
 * Two things here exist for the page-fault path (mm/fault.c):
 *   last-hit cache  vma_set.hit, the index of the area the previous
 *                   vma_lookup found (VMA_MAX, an always-empty slot, for
 *                   none); vma_cached() checks it first.  Every function here
 *                   that changes the array resets it (changed(), also called
 *                   by the insert and delete helpers every change goes
 *                   through) or points it at the area it changed; a copy of a
 *                   set (fork) is consistent as a whole.
 *   leaf bits       vma.pte and vma.pte_zero, the leaf a fault writes for the
 *                   area's prot (and, for the kinds that read the zero page,
 *                   the whole read-only zero-page leaf).  The set's owner
 *                   gives the per-prot values once (vma_set_leaves: upt.c
 *                   knows the bits); every place here that writes prot or
 *                   kind (set_prot) copies them in, splits copy them with the
 *                   area and merges only join areas of one prot and kind.
 * Code outside this file reads the set but changes it only through these
 * functions.
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it too.
 */
#ifndef EL_MM_VMA_H
#define EL_MM_VMA_H

#include <stddef.h>
#include <stdint.h>

#define VMA_MAX 256
#define VMA_PAGE 4096u

/* Protection (same bits as PROT_READ/WRITE/EXEC). */
#define VMA_R 0x1u
#define VMA_W 0x2u
#define VMA_X 0x4u

enum vma_kind {
	VMA_ANON,        /* private anonymous: zero page on read, a fresh frame on write */
	VMA_ANON_SHARED, /* shared anonymous: a fresh frame on any access */
	VMA_FILE,        /* a private copy of file data, read on fault */
	VMA_STACK,       /* like VMA_ANON, grows down */
	VMA_HEAP,        /* like VMA_ANON, moved by brk */
	VMA_SPECIAL,     /* pages the kernel mapped at creation ([vdso], [vvar]) */
	VMA_FILE_SHARED, /* MAP_SHARED of a /tmp file: the file's own pages (PTE_SW_NOFREE) */
};

struct vma {
	uint64_t start, end;
	uint64_t pgoff;    /* vma_has_file: file offset of start (bytes, page aligned) */
	uint64_t file_end; /* vma_has_file: file bytes at or beyond this offset read as zero */
	const void *file;  /* vma_has_file: the backing inode (opaque here) */
	const char *name;  /* VMA_SPECIAL: "[vdso]", ... */
	uint64_t pte;      /* leaf bits for prot (the set's leaf[prot]); set here, never by callers */
	uint64_t pte_zero; /* the zero-page leaf of a read fault (leaf_zero[prot]), 0: no zero page */
	uint32_t prot;     /* VMA_R | VMA_W | VMA_X */
	uint32_t kind;     /* enum vma_kind */
};

/* Areas with a backing file (vma.file, pgoff, file_end). */
static inline int vma_has_file(const struct vma *v)
{
	return v->kind == VMA_FILE || v->kind == VMA_FILE_SHARED;
}

/* The kinds whose not-present pages read as the shared zero page. */
#define VMA_ZERO_PAGE_KINDS ((1u << VMA_ANON) | (1u << VMA_STACK) | (1u << VMA_HEAP))

#define VMA_PROTS 8 /* prot values: VMA_R | VMA_W | VMA_X */

struct vma_set {
	unsigned n;
	unsigned hit; /* last-hit cache: index of the previous lookup's area, VMA_MAX: none */
	uint64_t leaf[VMA_PROTS];      /* vma.pte for each prot (vma_set_leaves) */
	uint64_t leaf_zero[VMA_PROTS]; /* vma.pte_zero for each prot, zero-page kinds */
	/* v[VMA_MAX] is no area: empty (start = end = 0), the cache's "none", never written. */
	struct vma v[VMA_MAX + 1];
};

#define VMA_ERR_FULL (-1) /* the operation needs more than VMA_MAX areas */
#define VMA_ERR_RANGE (-2) /* the range is not inside one area */

/* Empty, no cached area, leaf tables all 0 until vma_set_leaves. */
void vma_set_init(struct vma_set *s);
/* Sets the per-prot leaf tables and re-derives every area's pte and pte_zero from them. */
void vma_set_leaves(struct vma_set *s, const uint64_t leaf[VMA_PROTS],
		    const uint64_t leaf_zero[VMA_PROTS]);
/* Removes every area (an address space's teardown). */
void vma_set_clear(struct vma_set *s);

/*
 * The cached area if it contains addr (the fault path's first check), else
 * NULL.  hit is an area's index or VMA_MAX (the empty slot): every mutator
 * resets it, so no bound check is needed.
 */
static inline struct vma *vma_cached(struct vma_set *s, uint64_t addr)
{
	struct vma *v = &s->v[s->hit];

	return v->start <= addr && addr < v->end ? v : 0;
}
/* vma_find through the cache: the cached area first, a new hit is remembered. */
int vma_lookup(struct vma_set *s, uint64_t addr);
/* Area i (a grow-down stack) now starts at start, below its old start; it becomes the hit. */
void vma_grow_down(struct vma_set *s, unsigned i, uint64_t start);

/* Index of the area containing addr, or -1. */
int vma_find(const struct vma_set *s, uint64_t addr);
/* Index of the first area ending above addr (s->n if none). */
unsigned vma_first_above(const struct vma_set *s, uint64_t addr);
/* No area overlaps [start, end). */
int vma_range_free(const struct vma_set *s, uint64_t start, uint64_t end);
/* Areas cover [start, end) without a hole. */
int vma_range_covered(const struct vma_set *s, uint64_t start, uint64_t end);

/*
 * Highest page-aligned start such that [start, start + len) is free and
 * inside [low, high); 0 when there is none.
 */
uint64_t vma_gap_topdown(const struct vma_set *s, uint64_t len, uint64_t low, uint64_t high);

/* Adds v (its range must be free), merging with compatible neighbours: 0 or VMA_ERR_FULL. */
int vma_insert(struct vma_set *s, const struct vma *v);
/* Removes [start, end), splitting areas it cuts: 0 or VMA_ERR_FULL (then unchanged). */
int vma_remove(struct vma_set *s, uint64_t start, uint64_t end);
/* Sets prot on [start, end) (covered or not), splitting and re-merging: 0 or VMA_ERR_FULL. */
int vma_protect(struct vma_set *s, uint64_t start, uint64_t end, uint32_t prot);

/* Same attributes, adjacent, file offsets continuous: a and b could be one area. */
int vma_mergeable(const struct vma *a, const struct vma *b);

/* [start, end) covers part, not all, of a VMA_SPECIAL area: Linux never splits those. */
int vma_cuts_special(const struct vma_set *s, uint64_t start, uint64_t end);

/*
 * mremap: area i can grow in place by delta bytes: no wrap, the new end at
 * most limit, and nothing mapped in [end, end + delta).
 */
int vma_can_expand(const struct vma_set *s, unsigned i, uint64_t delta, uint64_t limit);
/* Grows area i to new_end (vma_can_expand said yes), merging with the next area if it can. */
void vma_expand(struct vma_set *s, unsigned i, uint64_t new_end);
/*
 * mremap: [addr, addr + old_len) (inside one area) reappears as
 * [new_addr, new_addr + new_len) (free) with the same attributes, the file
 * offset following; [heap] and [stack] become plain anonymous memory there.
 * With keep_old the old range stays mapped (MREMAP_DONTUNMAP).  0,
 * VMA_ERR_RANGE or VMA_ERR_FULL (then unchanged).
 */
int vma_move(struct vma_set *s, uint64_t addr, uint64_t old_len, uint64_t new_addr,
	     uint64_t new_len, int keep_old);

#endif
