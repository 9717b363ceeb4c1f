/*
 * The guest PMU driver: counters for the events the VMM asked for
 * (el.events), around the measured region (sys/region.c), into the reports.
 */
#ifndef EL_PMU_H
#define EL_PMU_H

#include "entrylab/abi.h"
#include "cmdline.h"

/*
 * Once at boot, after cpu_identify(): discovers and probes the PMU, plans
 * the requested events, measures the markers (EL_MARKER_RUNS empty regions).
 */
void pmu_init(const struct el_cmdline *cmdline);

/*
 * Region begin: pmu_region_prepare() stops, programs and zeroes the
 * counters (before the other begin work), pmu_region_start() enables them
 * (the very last thing).  Region end: pmu_region_stop() first, then
 * pmu_region_read().  No requested event, no MSR access.
 */
void pmu_region_prepare(void);
void pmu_region_start(void);
void pmu_region_stop(void);
void pmu_region_read(void);

/*
 * The report's PMU part: nr_counters, the counters of the last region that
 * ended (not-counted before any), pmu and markers.
 */
void pmu_report(struct el_report *r);

#endif
