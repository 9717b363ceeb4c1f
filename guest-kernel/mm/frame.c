/*
 * The frame allocator: one free list per order (a freed block's first word
 * links to the next, through the direct map) in front of a bump pointer that
 * walks the free ranges from low to high addresses.  No coalescing: freed
 * blocks are reused at their own order, which is all page tables, user pages
 * and page-table pairs need.
 */
#include "boot/bootinfo.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/frame_ranges.h"
#include "mm/layout.h"

#define MAX_RANGES 64
#define MAX_RESERVED (BOOT_MODULES_MAX + 3)

struct frame_stats frame_stats;

static struct fr_range ranges[MAX_RANGES];
static unsigned nr_ranges, cur_range;
static uint64_t bump;                      /* next never-used address in ranges[cur_range] */
static uint64_t free_list[FRAME_MAX_ORDER + 1];
/* Frames above this are not yet direct-mapped (boot.S maps only BOOT_MAP_SIZE). */
static uint64_t reachable_end = BOOT_MAP_SIZE;

void frame_init(void)
{
	struct fr_range ram[BOOT_MEMMAP_MAX], res[MAX_RESERVED];
	size_t nram = 0, nres = 0;
	unsigned i;
	int dropped;

	for (i = 0; i < boot_info.nr_memmap; i++)
		if (boot_info.memmap[i].type == PVH_MEM_RAM)
			ram[nram++] = (struct fr_range){boot_info.memmap[i].addr,
							boot_info.memmap[i].addr +
								boot_info.memmap[i].size};
	/* Low 1 MiB (firmware, boot structures) and the image right above it. */
	res[nres++] = (struct fr_range){0, image_to_phys(__kernel_end)};
	res[nres++] = (struct fr_range){boot_info.start_info_phys,
					boot_info.start_info_phys + PAGE_SIZE};
	for (i = 0; i < boot_info.nr_modules; i++)
		res[nres++] = (struct fr_range){boot_info.modules[i].paddr,
						boot_info.modules[i].paddr +
							boot_info.modules[i].size};
	nr_ranges = fr_ranges_build(ram, nram, res, nres, ranges, MAX_RANGES, &dropped);
	if (dropped)
		kprintf("frames: more than %d free ranges, the rest is unused\n", MAX_RANGES);
	if (!nr_ranges)
		panic("frames: no free RAM above the kernel image and modules; give the guest "
		      "more memory");
	bump = ranges[0].start;
	frame_stats.nr_ranges = nr_ranges;
	frame_stats.total = fr_ranges_bytes(ranges, nr_ranges) / PAGE_SIZE;
}

void frame_direct_map_ready(uint64_t direct_map_end)
{
	reachable_end = direct_map_end;
}

static void push_free(uint64_t pa, unsigned order)
{
	*(uint64_t *)phys_to_virt(pa) = free_list[order];
	free_list[order] = pa;
}

/* Takes 2^order pages from the bump ranges; alignment leftovers go to order 0. */
static uint64_t bump_alloc(unsigned order)
{
	uint64_t size = PAGE_SIZE << order;

	while (cur_range < nr_ranges) {
		uint64_t pa = ALIGN_UP(bump, size);

		if (pa + size <= ranges[cur_range].end) {
			if (pa + size > reachable_end)
				return 0; /* not direct-mapped yet: before paging_init() */
			for (; bump < pa; bump += PAGE_SIZE)
				push_free(bump, 0);
			bump = pa + size;
			return pa;
		}
		if (++cur_range < nr_ranges)
			bump = ranges[cur_range].start;
	}
	return 0;
}

uint64_t frame_alloc_order(unsigned order)
{
	uint64_t pa;

	if (order > FRAME_MAX_ORDER)
		return 0;
	pa = free_list[order];
	if (pa)
		free_list[order] = *(uint64_t *)phys_to_virt(pa);
	else
		pa = bump_alloc(order);
	if (!pa)
		return 0;
	frame_stats.in_use += 1ull << order;
	if (frame_stats.in_use > frame_stats.peak)
		frame_stats.peak = frame_stats.in_use;
	return pa;
}

void frame_free_order(uint64_t pa, unsigned order)
{
	if (!pa || order > FRAME_MAX_ORDER || (pa & ((PAGE_SIZE << order) - 1)))
		panic("frame_free_order(0x%lx, %u): not a block of that order", pa, order);
	push_free(pa, order);
	frame_stats.in_use -= 1ull << order;
}

uint64_t frame_alloc_zeroed(void)
{
	uint64_t pa = frame_alloc();

	if (pa)
		memset(phys_to_virt(pa), 0, PAGE_SIZE);
	return pa;
}
