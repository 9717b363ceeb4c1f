/*
 * The BOOT and RUN reports /init sends (struct el_report, abi.h; what each
 * field holds on Linux: include/entrylab/linux_init.h).  Pure: the host
 * unit tests compile it.
 */
#ifndef LINIT_REPORT_H
#define LINIT_REPORT_H

#include <entrylab/abi.h>
#include <entrylab/linux_init.h>

#include "facts.h"

/* BOOT: cpuid and config from the facts, requested all unset, cr0/cr4/efer 0. */
void linit_report_boot(struct el_report *r, const struct linit_facts *f);

/*
 * The region from the page the program wrote (a copy: the program is gone,
 * but the page is still not trusted): valid when its magic is right, it saw
 * a BEGIN and an END and the last END came after the last BEGIN; then
 * tsc_begin, tsc_end and iterations are the page's.  tsc_khz 0 (the host
 * knows it), unknown EL_REGION_UNKNOWN_ALL.  Returns NULL, or why the
 * region is not valid (for the console).
 */
const char *linit_region_from_page(const struct el_linux_region *page, struct el_region *g);

/*
 * RUN: the BOOT report's CPU and configuration fields (as entrylab's
 * kernel sends them), then the region, the counters and the markers' cost (nr of each), the
 * program's exit status (EL_REPORT_EXITED).  A counter is not counted
 * unless the region is valid and the program's perf ioctls all succeeded
 * (page errors 0).
 */
void linit_report_run(struct el_report *r, const struct el_report *boot,
		      const struct el_linux_region *page,
		      const struct el_counter *counters, const struct el_counter *markers,
		      unsigned nr, int exit_status);

#endif
