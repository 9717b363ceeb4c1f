/* Empty regions in /init: what the markers themselves cost, per counter. */
#include "markers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <entrylab/linux_init.h>

#include "com1.h"
#include "lib/region.h"
#include "perf.h"
#include "run.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* The minimum of the COUNTED runs; the first other status sticks. */
static void markers_fold(struct el_counter *m, const struct el_counter *c, unsigned nr, int first)
{
	for (unsigned i = 0; i < nr; i++) {
		if (first) {
			m[i] = c[i];
			continue;
		}
		if (m[i].status != EL_COUNTER_COUNTED)
			continue;
		if (c[i].status != EL_COUNTER_COUNTED) {
			m[i].status = c[i].status;
			m[i].value = 0;
		} else if (c[i].value < m[i].value) {
			m[i].value = c[i].value;
		}
	}
}

static int markers_runs(struct linit_perf *perf, struct el_counter *markers, char *err,
			size_t errlen)
{
	for (unsigned run = 0; run < EL_MARKER_RUNS; run++) {
		el_region_begin(0);
		el_region_end();
		if (linit_perf_read(perf, err, errlen))
			return -1;
		markers_fold(markers, perf->c, perf->nr, run == 0);
	}
	return 0;
}

int linit_markers_calibrate(const struct linit_conf *conf, struct el_counter *markers,
			    char *err, size_t errlen)
{
	struct linit_perf perf;
	int rc = -1;

	if (!conf->nr_events)
		return 0;
	if (linit_region_page(err, errlen) ||
	    linit_perf_open(&perf, conf->events, conf->nr_events, 0, err, errlen))
		return -1;
	if (linit_perf_leader(&perf) >= 0 && dup2(linit_perf_leader(&perf), EL_LINUX_PERF_FD) < 0) {
		snprintf(err, errlen, "the perf group at descriptor %d: %s", EL_LINUX_PERF_FD,
			 strerror(errno));
		goto out;
	}
	if (setenv(EL_LINUX_ENV_REGION, STR(EL_LINUX_REGION_FD), 1) ||
	    (linit_perf_leader(&perf) >= 0 &&
	     setenv(EL_LINUX_ENV_PERF, STR(EL_LINUX_PERF_FD), 1)) ||
	    el_region_linux_attach()) {
		snprintf(err, errlen, "the markers' region page did not map in /init");
		goto out;
	}
	linit_com1_release();
	rc = markers_runs(&perf, markers, err, errlen);
	if (linit_com1_open() && !rc) {
		snprintf(err, errlen, "ioperm after the calibration: %s", strerror(errno));
		rc = -1;
	}
out:
	unsetenv(EL_LINUX_ENV_REGION);
	unsetenv(EL_LINUX_ENV_PERF);
	close(EL_LINUX_PERF_FD);
	close(EL_LINUX_REGION_FD);
	linit_perf_close(&perf);
	return rc;
}
