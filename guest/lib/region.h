/*
 * Region markers: bracket a benchmark's measured loop.
 *
 * The markers are the public header's (include/entrylab/marker.h), the
 * same code a user's own program runs, so the markers' cost /init and our
 * kernel calibrate is theirs too: el_region_begin() and el_region_end(),
 * each a bare SYSCALL of EL_SYS_REGION inlined at the call site with its
 * el_region_site record; on Linux the slow path through the region page
 * of linux_init.h.  This file adds what only entrylab's own programs use,
 * and holds the public header to the ABI's numbers.
 */
#ifndef EL_GUEST_REGION_H
#define EL_GUEST_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include <entrylab/abi.h>
#include <entrylab/linux_init.h>
#include <entrylab/marker.h>

#include "sys.h"

/* marker.h stands alone; these keep it to the facts' homes. */
#define EL_MARKER_SAME(f) \
	(offsetof(struct el_marker_page, f) == offsetof(struct el_linux_region, f))
_Static_assert(EL_MARKER_SYS == EL_SYS_REGION, "marker.h: EL_SYS_REGION");
_Static_assert(EL_MARKER_BEGIN == EL_REGION_BEGIN, "marker.h: EL_REGION_BEGIN");
_Static_assert(EL_MARKER_END == EL_REGION_END, "marker.h: EL_REGION_END");
_Static_assert(EL_MARKER_QUERY == EL_REGION_QUERY, "marker.h: EL_REGION_QUERY");
_Static_assert(EL_MARKER_PAGE_SIZE == EL_LINUX_REGION_SIZE, "marker.h: the region page's size");
_Static_assert(EL_MARKER_PAGE_MAGIC == EL_LINUX_REGION_MAGIC, "marker.h: the page's magic");
_Static_assert(sizeof(struct el_marker_page) == sizeof(struct el_linux_region) &&
		       EL_MARKER_SAME(magic) && EL_MARKER_SAME(begins) && EL_MARKER_SAME(ends) &&
		       EL_MARKER_SAME(errors) && EL_MARKER_SAME(tsc_begin) &&
		       EL_MARKER_SAME(tsc_end) && EL_MARKER_SAME(iterations),
	       "marker.h: struct el_linux_region's layout");
_Static_assert(EL_MARKER_PERF_RESET == PERF_EVENT_IOC_RESET, "marker.h: PERF_EVENT_IOC_RESET");
_Static_assert(EL_MARKER_PERF_ENABLE == PERF_EVENT_IOC_ENABLE, "marker.h: PERF_EVENT_IOC_ENABLE");
_Static_assert(EL_MARKER_PERF_DISABLE == PERF_EVENT_IOC_DISABLE, "marker.h: IOC_DISABLE");
_Static_assert(EL_MARKER_PERF_GROUP == PERF_IOC_FLAG_GROUP, "marker.h: PERF_IOC_FLAG_GROUP");
#undef EL_MARKER_SAME

/*
 * True when the last begin and end both succeeded (for the result line):
 * under the entrylab kernel, or on Linux through the region page.
 */
bool el_region_marked(void);

/*
 * True when running under the entrylab kernel: EL_REGION_QUERY answers
 * anything but -ENOSYS.  Cached; costs one syscall the first time.  Programs
 * use it to keep Linux-only calls (unlink, prctl) off the entrylab kernel.
 */
bool el_entrylab(void);

/*
 * "running unmarked" on stderr, once per program (also said by a failing
 * marker); nothing on Linux when the region page makes the markers work.
 */
static inline void el_region_warn_unmarked(void)
{
	el_marker_warn_unmarked();
}

/*
 * The region page of linux_init.h: maps it when EL_LINUX_ENV_REGION names
 * one (and notes the perf group of EL_LINUX_ENV_PERF).  Runs before main;
 * entrylab's /init calls it again after it set the variables for its own
 * marker calibration.  0 when the page is mapped (now or before), -1 when
 * the environment names none or it cannot be mapped (said on stderr).
 */
static inline int el_region_linux_attach(void)
{
	return el_marker_attach();
}

#endif
