/*
 * The measured region (EL_SYS_REGION, abi.h): markers from the benchmark,
 * hypercalls to the VMM, TSC and event counts for the RUN report.
 */
#ifndef EL_SYS_REGION_H
#define EL_SYS_REGION_H

#include "entrylab/abi.h"

/* The region as measured so far (valid once begin and end were both seen). */
const struct el_region *region_result(void);

#endif
