/*
 * The markers' own cost on Linux (el_report.markers): the conf's events
 * around EL_MARKER_RUNS empty regions that /init marks itself, through the
 * same library code (guest/lib/region.h) and the same kind of page and
 * group as the program's.
 */
#ifndef LINIT_MARKERS_H
#define LINIT_MARKERS_H

#include <stddef.h>

#include <entrylab/abi.h>

#include "conf.h"

/*
 * Fills markers[0..conf->nr_events): per counter the minimum over the runs
 * when every run counted it, else the first status that was not COUNTED.
 * Runs with the ports given back (com1.h) and takes them again after.  0,
 * or -1 with err.
 */
int linit_markers_calibrate(const struct linit_conf *conf, struct el_counter *markers,
			    char *err, size_t errlen);

#endif
