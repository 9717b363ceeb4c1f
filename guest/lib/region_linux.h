/*
 * Region markers on Linux (region_linux.c): the region page and perf group
 * entrylab's /init hands the program (include/entrylab/linux_init.h).
 * Internal to the markers' slow path (region.c).
 */
#ifndef EL_GUEST_REGION_LINUX_H
#define EL_GUEST_REGION_LINUX_H

#include <stdbool.h>
#include <stdint.h>

/* Is the region page mapped? */
bool el_region_linux_attached(void);

/*
 * BEGIN: resets and enables the group, records iterations, RDTSC last.
 * END: RDTSC first, disables the group, counts the region.  0, or -1
 * when there is no region page (the marker failed).
 */
int el_region_linux_begin(uint64_t iterations);
int el_region_linux_end(void);

#endif
