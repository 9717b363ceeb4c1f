/*
 * The BOOT and RUN reports /init sends (struct el_report, abi.h; what each
 * field holds on Linux: include/entrylab/linux_init.h).  Pure: the host
 * unit tests compile it.
 */
#ifndef LINIT_REPORT_H
#define LINIT_REPORT_H

#include <stdint.h>

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
 * The whole-program region (conf region=whole), as /init measured it in a
 * page it shares with the program's process up to that one's execve.
 */
struct linit_whole {
	uint64_t tsc_exec;       /* (child) RDTSC just before its execve; 0: it never got there */
	uint64_t tsc_wait;       /* (/init) RDTSC first thing once waitpid returned */
	int32_t exec_errno;      /* (child) execve's errno had it returned: it never ran */
	uint32_t faults_counted; /* (/init) page_faults holds perf's software count */
	uint64_t page_faults;    /* (/init) PERF_COUNT_SW_PAGE_FAULTS, inherited, from the execve */
};

/*
 * The region of a whole program: valid when the child read the TSC and its
 * execve did not fail, and /init's reading is not earlier; then tsc_begin
 * and tsc_end are those readings, iterations 0 (the host divides by -n),
 * page_faults w's when faults_counted.  tsc_khz 0, unknown
 * EL_REGION_UNKNOWN_ALL but page faults when counted.  NULL, or why it is
 * not valid.
 */
const char *linit_region_whole(const struct linit_whole *w, struct el_region *g);

/* The region of scope (MARKED: from page, WHOLE: from whole): NULL, or why it is not valid. */
const char *linit_region_of(uint32_t scope, const struct el_linux_region *page,
			    const struct linit_whole *whole, struct el_region *g);

/*
 * RUN: the BOOT report's CPU and configuration fields (as entrylab's
 * kernel sends them), then the region of the scope conf asked (MARKED:
 * from the page; WHOLE: from whole, the page ignored), region_scope that
 * scope when the region is valid and EL_REGION_SCOPE_NONE when not, the
 * counters and the markers' cost (nr of each), the program's exit status
 * (EL_REPORT_EXITED).  A counter is not counted unless the region is
 * valid and, for MARKED, the program's perf ioctls all succeeded (page
 * errors 0).  whole may be NULL for MARKED.
 */
void linit_report_run(struct el_report *r, const struct el_report *boot, uint32_t scope,
		      const struct el_linux_region *page, const struct linit_whole *whole,
		      const struct el_counter *counters, const struct el_counter *markers,
		      unsigned nr, int exit_status);

#endif
