/* Validation of guest reports (vmm/report_check.c): a malformed report names its bad field. */
#include <criterion/criterion.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "exit.h"

static struct el_report r;
static char err[256];

static void good_report(void)
{
	memset(&r, 0, sizeof(r));
	r.magic = EL_REPORT_MAGIC;
	r.abi_version = EL_ABI_VERSION;
	r.size = sizeof(r);
	r.kind = EL_REPORT_BOOT;
	memset(r.config, EL_CONFIG_UNSET, sizeof(r.config));
	memset(r.requested, EL_CONFIG_UNSET, sizeof(r.requested));
	r.config[EL_CFG_PTI] = EL_ON;
	r.config[EL_CFG_PCID] = EL_CONFIG_UNAVAILABLE;
	r.config[EL_CFG_VSYSCALL] = EL_VSYSCALL_NONE;
}

TestSuite(hcall_report, .init = good_report);

static void bad(const char *needle)
{
	err[0] = '\0';
	cr_assert_neq(hcall_report_check(&r, err, sizeof(err)), 0, "accepted: want \"%s\"", needle);
	cr_assert(strstr(err, needle), "\"%s\" does not name \"%s\"", err, needle);
}

Test(hcall_report, good_boot_and_run_reports)
{
	cr_assert_eq(hcall_report_check(&r, err, sizeof(err)), 0, "%s", err);
	r.kind = EL_REPORT_RUN;
	r.nr_counters = EL_MAX_COUNTERS;
	r.counters[0].status = EL_COUNTER_NOT_COUNTED;
	cr_assert_eq(hcall_report_check(&r, err, sizeof(err)), 0, "%s", err);
}

Test(hcall_report, magic) { r.magic = 0x12345678; bad("magic"); }
Test(hcall_report, abi_version) { r.abi_version = EL_ABI_VERSION + 1; bad("abi_version"); }
Test(hcall_report, size) { r.size = 100; bad("size"); }
Test(hcall_report, kind) { r.kind = 7; bad("kind"); }
Test(hcall_report, nr_counters) { r.nr_counters = EL_MAX_COUNTERS + 1; bad("nr_counters"); }

Test(hcall_report, counter_status)
{
	r.nr_counters = 2;
	r.counters[1].status = 9;
	bad("counters[1].status");
}

Test(hcall_report, config_value_out_of_range)
{
	r.config[EL_CFG_GLOBAL] = 3; /* none, entry, all: 3 is one past */
	bad("config[4] (global)");
}

Test(hcall_report, requested_value_out_of_range)
{
	r.requested[EL_CFG_PTI] = 2;
	bad("requested[0] (pti)");
}

/* The timer's figures (struct el_timer_stats) must agree with each other. */
Test(hcall_report, timer_stats)
{
	r.timer = (struct el_timer_stats){.interrupts = 3, .late_last_ns = 10, .late_max_ns = 50,
					  .fallbacks = 1, .polls = 7};
	cr_assert_eq(hcall_report_check(&r, err, sizeof(err)), 0, "%s", err);
	r.timer.late_last_ns = 51;
	bad("timer.late_last_ns");
	r.timer.late_last_ns = 10;
	r.timer.fallbacks = 4;
	bad("timer.fallbacks");
}
