/*
 * Consistency of guest reports (vmm/report_check.c): a region that runs
 * backwards, counts the region could not hold, reports out of order and
 * markers the VMM never saw are each refused, naming the field.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "report_check.h"

static struct el_report r;
static struct el_report_seen seen;
static char err[256];

/* A well-formed RUN report of a 1000-tick region, after BOOT and both markers. */
static void good_run(void)
{
	memset(&r, 0, sizeof(r));
	r.magic = EL_REPORT_MAGIC;
	r.abi_version = EL_ABI_VERSION;
	r.size = sizeof(r);
	r.kind = EL_REPORT_RUN;
	memset(r.config, EL_CONFIG_UNSET, sizeof(r.config));
	memset(r.requested, EL_CONFIG_UNSET, sizeof(r.requested));
	r.region = (struct el_region){.tsc_begin = 9000,
				      .tsc_end = 10000,
				      .tsc_khz = 2000000,
				      .syscalls = 100,
				      .page_faults = 3,
				      .interrupts = 1,
				      .iterations = 100,
				      .valid = 1};
	r.region_scope = EL_REGION_SCOPE_MARKED;
	seen = (struct el_report_seen){.have_boot = true, .region_begun = true, .region_ended = true,
				       .scope = EL_REGION_SCOPE_MARKED};
	err[0] = '\0';
}

TestSuite(report_check, .init = good_run);

static void bad(const char *needle)
{
	cr_assert_neq(report_check(&r, &seen, err, sizeof(err)), 0, "accepted: want \"%s\"", needle);
	cr_assert(strstr(err, needle), "\"%s\" does not name \"%s\"", err, needle);
}

static void good(void)
{
	cr_assert_eq(report_check(&r, &seen, err, sizeof(err)), 0, "%s", err);
}

Test(report_check, good_run_report)
{
	good();
}

Test(report_check, region_backwards)
{
	r.region.tsc_begin = 9;
	r.region.tsc_end = 5;
	bad("RUN report: region.tsc_end 5 < tsc_begin 9");
}

Test(report_check, empty_region_is_fine)
{
	r.region.tsc_end = r.region.tsc_begin;
	r.region.syscalls = r.region.page_faults = r.region.interrupts = 0;
	r.region.iterations = 0;
	good();
}

Test(report_check, counts_of_all_ones)
{
	r.region.syscalls = UINT64_MAX;
	bad("region.syscalls 18446744073709551615 exceeds the region's 1000 TSC ticks");
}

Test(report_check, page_faults_beyond_ticks)
{
	r.region.page_faults = 1001;
	bad("region.page_faults 1001");
}

Test(report_check, interrupts_beyond_ticks)
{
	r.region.interrupts = 1001;
	bad("region.interrupts 1001");
}

Test(report_check, count_equal_to_ticks_is_the_bound)
{
	r.region.syscalls = 1000;
	good();
}

Test(report_check, iterations_bound)
{
	r.region.iterations = 1000ull * EL_REGION_ITERS_PER_TICK + EL_REGION_ITERS_PER_TICK - 1;
	good();
	r.region.iterations = UINT64_MAX;
	bad("region.iterations 18446744073709551615");
}

Test(report_check, ticks_beyond_int64)
{
	r.region.tsc_begin = 0;
	r.region.tsc_end = UINT64_MAX;
	bad("exceeds 2^63-1");
}

Test(report_check, tsc_khz_absurd)
{
	r.region.tsc_khz = UINT64_MAX;
	bad("region.tsc_khz");
}

Test(report_check, valid_flag_garbage)
{
	r.region.valid = 7;
	bad("region.valid 7");
}

Test(report_check, region_without_markers)
{
	seen.region_begun = seen.region_ended = false;
	bad("saw no EL_HC_REGION_BEGIN");
}

Test(report_check, region_without_end_marker)
{
	seen.region_ended = false;
	bad("saw no EL_HC_REGION_END");
}

Test(report_check, markers_but_no_region)
{
	r.region = (struct el_region){0};
	bad("region.valid 0, but the VMM saw");
}

Test(report_check, no_region_no_markers_unchecked)
{
	/* An unmarked program: the region's other fields are not shown, so not checked. */
	r.region = (struct el_region){.tsc_begin = 9, .syscalls = UINT64_MAX};
	r.region_scope = EL_REGION_SCOPE_NONE;
	seen.region_begun = seen.region_ended = false;
	good();
	seen.region_begun = true; /* BEGIN without END: valid 0 as well */
	good();
}

Test(report_check, run_before_boot)
{
	seen.have_boot = false;
	bad("RUN report before any BOOT report");
}

Test(report_check, run_twice)
{
	seen.have_run = true;
	bad("RUN report after the RUN report");
}

Test(report_check, boot_twice)
{
	r.kind = EL_REPORT_BOOT;
	r.region_scope = EL_REGION_SCOPE_NONE;
	bad("BOOT report sent twice");
}

Test(report_check, boot_after_run)
{
	r.kind = EL_REPORT_BOOT;
	r.region_scope = EL_REGION_SCOPE_NONE;
	seen.have_boot = false;
	seen.have_run = true;
	bad("BOOT report after the RUN report");
}

Test(report_check, first_boot_report)
{
	r.kind = EL_REPORT_BOOT;
	r.region = (struct el_region){0};
	r.region_scope = EL_REGION_SCOPE_NONE;
	seen = (struct el_report_seen){0};
	good();
}

Test(report_check, shape_comes_first)
{
	r.magic = 1;
	r.region.tsc_end = 0;
	bad("magic");
}

Test(report_check, markers_in_order)
{
	seen = (struct el_report_seen){.have_boot = true};
	cr_assert_eq(report_check_marker(EL_HC_REGION_BEGIN, &seen, err, sizeof(err)), 0, "%s", err);
	cr_assert_neq(report_check_marker(EL_HC_REGION_END, &seen, err, sizeof(err)), 0);
	cr_assert(strstr(err, "EL_HC_REGION_END without an EL_HC_REGION_BEGIN"), "%s", err);
	seen.region_begun = true;
	cr_assert_eq(report_check_marker(EL_HC_REGION_END, &seen, err, sizeof(err)), 0, "%s", err);
	seen.region_ended = true;
	cr_assert_neq(report_check_marker(EL_HC_REGION_END, &seen, err, sizeof(err)), 0);
}

Test(report_check, markers_outside_the_program)
{
	seen = (struct el_report_seen){0};
	cr_assert_neq(report_check_marker(EL_HC_REGION_BEGIN, &seen, err, sizeof(err)), 0);
	cr_assert(strstr(err, "before the BOOT report"), "%s", err);
	seen = (struct el_report_seen){.have_boot = true, .have_run = true};
	cr_assert_neq(report_check_marker(EL_HC_REGION_BEGIN, &seen, err, sizeof(err)), 0);
	cr_assert(strstr(err, "after the RUN report"), "%s", err);
}

/* The scope (abi.h enum el_region_scope): with the region, and as the host asked. */
Test(report_check, scope_none_with_a_region) { r.region_scope = EL_REGION_SCOPE_NONE; bad("region_scope is none"); }
Test(report_check, scope_without_a_region)
{
	r.region.valid = 0;
	seen.region_begun = seen.region_ended = false;
	bad("region.valid 0, but region_scope is marked");
}
Test(report_check, scope_not_asked) { seen.scope = EL_REGION_SCOPE_WHOLE; bad("the host asked whole"); }
Test(report_check, scope_out_of_range) { r.region_scope = EL_REGION_SCOPE_COUNT; bad("region_scope 3 is not a scope"); }
Test(report_check, scope_unknown_to_the_checker) { seen.scope = EL_REGION_SCOPE_NONE; good(); }
Test(report_check, whole_declares_no_iterations)
{
	r.region_scope = seen.scope = EL_REGION_SCOPE_WHOLE;
	bad("region.iterations 100 in a whole-program region");
	r.region.iterations = 0;
	good();
}
Test(report_check, boot_has_no_scope)
{
	r.kind = EL_REPORT_BOOT;
	seen = (struct el_report_seen){0};
	bad("BOOT report: region_scope 1");
}
