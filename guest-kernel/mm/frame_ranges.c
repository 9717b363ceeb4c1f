/*
 * Free-range arithmetic for the frame allocator: clip, subtract, sort and
 * merge page-aligned ranges.  Pure and host-testable (frame_ranges.h).
 */
#include "frame_ranges.h"

#define PAGE_MASK_ ((uint64_t)FR_PAGE_SIZE - 1)

static uint64_t align_up(uint64_t x)
{
	/* Saturates instead of wrapping for ranges that end at the top of memory. */
	if (x > UINT64_MAX - PAGE_MASK_)
		return UINT64_MAX & ~PAGE_MASK_;
	return (x + PAGE_MASK_) & ~PAGE_MASK_;
}

static uint64_t align_down(uint64_t x)
{
	return x & ~PAGE_MASK_;
}

/* Inserts r into the sorted list out[0..n) and merges touching neighbours. */
static size_t insert_sorted(struct fr_range *out, size_t n, size_t max, struct fr_range r,
			    int *dropped)
{
	size_t i = 0, j;

	while (i < n && out[i].start < r.start)
		i++;
	if (i > 0 && out[i - 1].end >= r.start) {
		if (r.end > out[i - 1].end)
			out[i - 1].end = r.end;
		i--;
	} else {
		if (n == max) {
			*dropped = 1;
			return n;
		}
		for (j = n; j > i; j--)
			out[j] = out[j - 1];
		out[i] = r;
		n++;
	}
	/* The grown entry may now reach its successors. */
	while (i + 1 < n && out[i + 1].start <= out[i].end) {
		if (out[i + 1].end > out[i].end)
			out[i].end = out[i + 1].end;
		for (j = i + 1; j + 1 < n; j++)
			out[j] = out[j + 1];
		n--;
	}
	return n;
}

/*
 * Adds what is left of [start, end) after removing reserved[k..): recursion
 * over the reserved list keeps the pieces without a scratch buffer.
 */
static size_t add_piece(uint64_t start, uint64_t end, const struct fr_range *reserved, size_t nres,
			size_t k, struct fr_range *out, size_t n, size_t max, int *dropped)
{
	for (; k < nres; k++) {
		uint64_t rs = align_down(reserved[k].start), re = align_up(reserved[k].end);

		if (reserved[k].end <= reserved[k].start || re <= start || rs >= end)
			continue;
		if (rs > start)
			n = add_piece(start, rs, reserved, nres, k + 1, out, n, max, dropped);
		if (re >= end)
			return n;
		start = re;
	}
	if (start < end)
		n = insert_sorted(out, n, max, (struct fr_range){start, end}, dropped);
	return n;
}

size_t fr_ranges_build(const struct fr_range *ram, size_t nram, const struct fr_range *reserved,
		       size_t nres, struct fr_range *out, size_t max, int *dropped)
{
	int drop = 0;
	size_t i, n = 0;

	for (i = 0; i < nram; i++) {
		uint64_t s = align_up(ram[i].start), e = align_down(ram[i].end);

		if (ram[i].end > ram[i].start && s < e)
			n = add_piece(s, e, reserved, nres, 0, out, n, max, &drop);
	}
	if (dropped)
		*dropped = drop;
	return n;
}

uint64_t fr_ranges_bytes(const struct fr_range *r, size_t n)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += r[i].end - r[i].start;
	return total;
}
