/*
 * Physical frame allocator over the PVH memory map.
 *
 * Blocks of 2^order pages (order 0..FRAME_MAX_ORDER), naturally aligned.
 * Order 1 exists for page-table pairs (page-table isolation keeps a kernel
 * and a user top-level table in one 8 KiB block, as Linux does).  Every
 * frame is reachable through the direct map (phys_to_virt).
 */
#ifndef EL_MM_FRAME_H
#define EL_MM_FRAME_H

#include "kernel.h"

#define FRAME_MAX_ORDER 3

struct frame_stats {
	uint64_t total;     /* pages the allocator manages */
	uint64_t in_use;    /* pages handed out and not freed */
	uint64_t peak;      /* highest in_use seen */
	unsigned nr_ranges; /* free ranges after subtracting the reserved ones */
};

/* After bootinfo_capture(), before paging_init(): takes RAM minus image, boot data, modules. */
void frame_init(void);
/* After paging_init(): every frame is direct-mapped from now on. */
void frame_direct_map_ready(uint64_t direct_map_end);

/* Physical address of a block of 2^order pages, or 0 when memory is exhausted. */
uint64_t frame_alloc_order(unsigned order);
void frame_free_order(uint64_t pa, unsigned order);

static inline uint64_t frame_alloc(void)
{
	return frame_alloc_order(0);
}

static inline void frame_free(uint64_t pa)
{
	frame_free_order(pa, 0);
}

/* One page, zero-filled; 0 when memory is exhausted. */
uint64_t frame_alloc_zeroed(void);

extern struct frame_stats frame_stats;

#endif
