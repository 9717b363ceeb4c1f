/*
 * Reference counts of the frames that several address spaces map: the
 * MAP_SHARED anonymous pages a fork left in parent and child.
 *
 * Only shared frames have an entry; a frame without one has one owner.
 * Leaves that map a frame with (or once with) an entry carry PTE_SW_SHARED
 * (upt.h), so freeing every other frame never looks here.  The table is a
 * fixed open-addressing hash: a fork that would overfill it fails with
 * ENOMEM instead of growing it, which bounds shared anonymous memory across
 * address spaces at FRAME_SHARE_SLOTS * 7/8 pages (28 MiB).
 *
 * Pure C (only <stdint.h>/<stdbool.h>): the host unit tests compile it too.
 */
#ifndef EL_MM_FRAME_SHARE_H
#define EL_MM_FRAME_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#define FRAME_SHARE_SLOTS 8192u /* a power of two */
#define FRAME_SHARE_MAX (FRAME_SHARE_SLOTS / 8 * 7)

/* One more owner of the frame at pa (page aligned): 0, or -1 when the table is full. */
int frame_share_get(uint64_t pa);
/*
 * One owner lets go of pa: true when it was the last one, and the caller
 * frees the frame.  The entry goes once one owner is left.
 */
bool frame_share_put(uint64_t pa);
/* Owners of pa: 1 for a frame without an entry. */
unsigned frame_share_count(uint64_t pa);
/* Frames with more than one owner (for the tests and the leak check). */
unsigned frame_share_entries(void);
/* Empties the table (the host tests). */
void frame_share_reset(void);

#endif
