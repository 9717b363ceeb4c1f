/*
 * Free physical memory as a list of page-aligned ranges: the RAM ranges of
 * the memory map minus the reserved ones (kernel image, boot data, modules).
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it too.
 */
#ifndef EL_MM_FRAME_RANGES_H
#define EL_MM_FRAME_RANGES_H

#include <stddef.h>
#include <stdint.h>

#define FR_PAGE_SIZE 4096u

struct fr_range {
	uint64_t start, end; /* [start, end) */
};

/*
 * Writes to out the page-aligned parts of the ram ranges (shrunk inwards)
 * that no reserved range (grown outwards) touches, sorted and merged.
 * Returns the number of ranges; when more than max would be needed, the
 * rest is dropped and *dropped (if non-NULL) is set to 1.
 */
size_t fr_ranges_build(const struct fr_range *ram, size_t nram, const struct fr_range *reserved,
		       size_t nres, struct fr_range *out, size_t max, int *dropped);

/* Total bytes in ranges. */
uint64_t fr_ranges_bytes(const struct fr_range *r, size_t n);

#endif
