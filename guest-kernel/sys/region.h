/*
 * The measured region (EL_SYS_REGION, abi.h): markers from the benchmark,
 * hypercalls to the VMM, TSC and event counts for the RUN report.  Its
 * scope (el.region=, abi.h enum el_region_scope) is marked, what the
 * markers bracket, or whole, the program from its first return to user
 * mode to its exit (region.c has how).
 */
#ifndef EL_SYS_REGION_H
#define EL_SYS_REGION_H

#include "entrylab/abi.h"

/* The region as measured so far (valid once begin and end were both seen). */
const struct el_region *region_result(void);

/* The scope asked for (el.region=; absent: marked), whether or not one was measured. */
enum el_region_scope region_scope(void);

/*
 * Whole scope only (else nothing): begins the region; the last call before
 * init's first return to user mode.  From then on the markers answer 0.
 */
void region_whole_begin(void);

/* Ends the region region_whole_begin began (else nothing); the first thing once init exited. */
void region_whole_end(void);

#endif
