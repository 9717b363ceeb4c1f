/* Region markers: what entrylab's own programs ask of them (marker.h does the rest). */
#include "region.h"

#include <errno.h>
#include <sys/syscall.h>

_Static_assert(EL_MARKER_NR_IOCTL == SYS_ioctl, "marker.h: x86-64's ioctl");

bool el_region_marked(void)
{
	const struct el_marker_state *st = &el_marker_state;

	return !st->begin_failed && !st->end_failed && (st->linux_used || el_entrylab());
}

bool el_entrylab(void)
{
	struct el_marker_state *st = &el_marker_state;

	/* Not a marker site: the query is no region boundary. */
	if (!st->entrylab_known) {
		st->entrylab = el_syscall2(EL_SYS_REGION, EL_REGION_QUERY, 0) != -ENOSYS;
		st->entrylab_known = 1;
	}
	return st->entrylab;
}
