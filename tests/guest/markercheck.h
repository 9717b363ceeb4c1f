/* markercheck's second translation unit (markercheck_end.c). */
#ifndef MARKERCHECK_H
#define MARKERCHECK_H

#include <entrylab/marker.h>

/* Its view of the markers' state. */
const struct el_marker_state *markercheck_state(void);
/* One getppid (a raw-enough call that stays a syscall on every libc). */
long markercheck_call(void);
/* el_region_end(), from this unit. */
void markercheck_end(void);

#endif
