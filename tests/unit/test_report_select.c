/*
 * The columns a command asks for (harness/report/report_select.c): an
 * experiment's metrics and events, a trace's columns, --metrics, --baseline.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "report.h"

static bool has_column(const struct report *r, const char *text)
{
	for (unsigned k = 0; k < r->nm; k++)
		if (!strcmp(r->m[k].text, text))
			return true;
	return false;
}

Test(report_select, experiment_metrics_and_events)
{
	const char *const metrics[] = {"ns", "cycles:k"};
	struct report r;
	unsigned defaults;

	report_init(&r);
	report_experiment_columns(&r, metrics, 2, "cycles:k,instructions:u");
	cr_expect_eq(r.nm, 2, "the file's metrics alone: %u", r.nm);
	cr_expect(has_column(&r, "cycles:k"));
	report_free(&r);

	report_init(&r);
	report_default_metrics(&r);
	defaults = r.nm;
	report_free(&r);
	report_init(&r);
	report_experiment_columns(&r, NULL, 0, "instructions:u,cycles:k");
	cr_expect_eq(r.nm, defaults + 2, "defaults plus a column per event: %u", r.nm);
	report_free(&r);
}

Test(report_select, trace_columns_drop_what_a_trace_cannot_give)
{
	const char *const metrics[] = {"ns", "trace_user", "cycles:k"};
	char dropped[128];
	struct report r;

	report_init(&r);
	report_trace_columns(&r, metrics, 3, dropped, sizeof(dropped));
	cr_expect_str_eq(dropped, "ns, cycles:k");
	cr_expect_eq(r.nm, 2, "trace_kernel and trace_user once: %u", r.nm);
	report_free(&r);
}

Test(report_select, metric_list_and_baseline)
{
	char err[256];
	struct report r;

	report_init(&r);
	cr_expect_eq(report_metric_list(&r, "ns, syscalls", err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(r.nm, 2);
	cr_expect_eq(report_metric_list(&r, "ns,run", err, sizeof(err)), -1);
	cr_expect(strstr(err, "'run'"), "%s", err);
	cr_assert_geq(report_group(&r, "a", "getpid", "host", ""), 0);
	cr_assert_geq(report_group(&r, "b", "getpid", "host", "pti=on"), 0);
	cr_expect_eq(report_baseline_find(&r, "b"), 1);
	cr_expect_eq(report_baseline_find(&r, "1"), 0, "numbered from 1");
	cr_expect_eq(report_baseline_find(&r, "3"), -1);
	cr_expect_eq(report_baseline_find(&r, "c"), -1);
	report_free(&r);
}
