/*
 * Shared-frame reference counts (frame_share.h): linear probing on the
 * frame number, deletion by shifting the following run back so lookups
 * never need tombstones.  Pure and host-testable.
 */
#include "frame_share.h"

struct share_slot {
	uint32_t pfn;   /* 0: empty (frame 0 is never a user page) */
	uint32_t count; /* >= 2 */
};

static struct share_slot slots[FRAME_SHARE_SLOTS];
static unsigned used;

static unsigned home(uint32_t pfn)
{
	return (pfn * 2654435761u) & (FRAME_SHARE_SLOTS - 1);
}

static unsigned next(unsigned i)
{
	return (i + 1) & (FRAME_SHARE_SLOTS - 1);
}

/* The slot holding pfn, or the empty slot where it would go. */
static unsigned find(uint32_t pfn)
{
	unsigned i = home(pfn);

	while (slots[i].pfn && slots[i].pfn != pfn)
		i = next(i);
	return i;
}

int frame_share_get(uint64_t pa)
{
	uint32_t pfn = (uint32_t)(pa >> 12);
	unsigned i = find(pfn);

	if (slots[i].pfn) {
		slots[i].count++;
		return 0;
	}
	if (used >= FRAME_SHARE_MAX)
		return -1;
	slots[i].pfn = pfn;
	slots[i].count = 2;
	used++;
	return 0;
}

/* Empties slot i and moves back every entry of the run after it that probed past i. */
static void remove_at(unsigned i)
{
	unsigned j = i;

	slots[i].pfn = 0;
	for (;;) {
		unsigned h;

		j = next(j);
		if (!slots[j].pfn)
			break;
		h = home(slots[j].pfn);
		/* Entry j may fill the hole at i when its home is not in (i, j] cyclically. */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			slots[i] = slots[j];
			slots[j].pfn = 0;
			i = j;
		}
	}
	used--;
}

bool frame_share_put(uint64_t pa)
{
	unsigned i = find((uint32_t)(pa >> 12));

	if (!slots[i].pfn)
		return true;
	if (--slots[i].count == 1)
		remove_at(i);
	return false;
}

unsigned frame_share_count(uint64_t pa)
{
	unsigned i = find((uint32_t)(pa >> 12));

	return slots[i].pfn ? slots[i].count : 1;
}

unsigned frame_share_entries(void)
{
	return used;
}

void frame_share_reset(void)
{
	unsigned i;

	for (i = 0; i < FRAME_SHARE_SLOTS; i++)
		slots[i].pfn = 0;
	used = 0;
}
