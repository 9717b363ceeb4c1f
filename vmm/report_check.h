/*
 * Validation of the guest's reports and region markers, as pure functions
 * (no vCPU, no guest memory): the shape of a report, its consistency (a
 * monotonic region, counts the region could hold) and its order against
 * what the VMM itself saw (BOOT once, then RUN once, markers in order).
 * The exit loop (vmm/dev/hcall.c) calls them; unit tests and fuzzers can too.
 */
#ifndef EL_REPORT_CHECK_H
#define EL_REPORT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "entrylab/abi.h"

/*
 * A declared region iteration is at least one instruction; no core retires
 * more than 8 a cycle nor clocks above 8 times its TSC rate.
 */
#define EL_REGION_ITERS_PER_TICK 64u
#define EL_REGION_TSC_KHZ_MAX    100000000ull /* 100 GHz */

/* What the VMM saw before the report or marker at hand: its own account, not the guest's. */
struct el_report_seen {
	bool have_boot, have_run;        /* reports accepted so far */
	bool region_begun, region_ended; /* EL_HC_REGION_BEGIN, then EL_HC_REGION_END after it */
	uint8_t scope; /* enum el_region_scope the host asked (spec); NONE: this checker does not know */
};

/* Shape: magic, version, size, kind, counts and enum values; -1 with the field named in err. */
int hcall_report_check(const struct el_report *r, char *err, size_t errlen);

/* Region of a RUN report: monotonic TSC, counts within its ticks, markers the VMM saw. */
int report_check_region(const struct el_report *r, const struct el_report_seen *seen, char *err,
			size_t errlen);

/* Order: BOOT once, before RUN; RUN once. */
int report_check_order(const struct el_report *r, const struct el_report_seen *seen, char *err,
		       size_t errlen);

/* All of the above, shape first: what EL_HC_REPORT accepts. */
int report_check(const struct el_report *r, const struct el_report_seen *seen, char *err,
		 size_t errlen);

/* A region marker hypercall (EL_HC_REGION_BEGIN or _END): after BOOT, before RUN, END after BEGIN. */
int report_check_marker(unsigned nr, const struct el_report_seen *seen, char *err, size_t errlen);

#endif
