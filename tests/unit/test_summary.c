/*
 * `entrylab run`'s aggregate (cli/summary_counters.c, summary_aggregate.c):
 * perf's statistics, perf stat's -x columns on every row, --json lines,
 * placeholders instead of numbers nobody measured, and -r N folded into one
 * set of rows.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

/* Fields of one CSV line (sep ','), counting empty ones. */
static int fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

static char *capture_csv(const struct summary_row *r, bool repeated)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	summary_row_csv(f, r, ",", repeated);
	fclose(f);
	return out;
}

Test(summary, perf_statistics)
{
	struct summary_acc a = {0};

	summary_acc_add(&a, 10);
	cr_expect_float_eq(summary_acc_rse(&a), 0.0, 1e-12, "one value: no noise");
	summary_acc_add(&a, 12);
	summary_acc_add(&a, 14);
	cr_expect_float_eq(a.mean, 12.0, 1e-12);
	cr_expect_float_eq(a.min, 10.0, 1e-12);
	cr_expect_float_eq(a.max, 14.0, 1e-12);
	/* variance 4, stderr sqrt(4/3) = 1.1547, 100 * 1.1547 / 12 = 9.6225% */
	cr_expect_float_eq(summary_acc_stderr(&a), 1.1547005, 1e-6);
	cr_expect_float_eq(summary_acc_rse(&a), 9.6225045, 1e-6);
}

Test(summary, grouped_like_perf)
{
	char b[48];

	summary_grouped(b, sizeof(b), 1234567);
	cr_expect_str_eq(b, "1,234,567");
	summary_grouped(b, sizeof(b), 999);
	cr_expect_str_eq(b, "999");
	summary_grouped(b, sizeof(b), 1234.5);
	cr_expect_str_eq(b, "1,234.50");
}

Test(summary, csv_has_perf_columns_on_every_row)
{
	struct summary_row r = {.event = "cycles:k", .unit = "", .metric_unit = "per syscall"};
	struct summary_row none = {.event = "instructions:k", .unit = "",
				   .status = EL_COUNTER_NOT_SUPPORTED};
	char *s;

	summary_acc_add(&r.val, 100);
	summary_acc_add(&r.val, 200);
	summary_acc_add(&r.metric, 1.0);
	summary_acc_add(&r.metric, 2.0);
	summary_acc_add(&r.runtime, 5000);
	summary_acc_add(&r.runtime, 7000);
	/* perf stat 6.1 -r N -x,: value,unit,event,variance,run time,pcnt,metric,metric unit */
	s = capture_csv(&r, true);
	cr_expect_str_eq(s, "150,,cycles:k,33.33%,6000,100.00,1.50,per syscall\n");
	cr_expect_eq(fields(s), 8);
	free(s);
	s = capture_csv(&none, true);
	cr_expect_str_eq(s, "<not supported>,,instructions:k,0.00%,0,100.00,,\n");
	cr_expect_eq(fields(s), 8, "a counter nobody counted keeps every column");
	free(s);
	/* one run: perf prints no variance column */
	s = capture_csv(&none, false);
	cr_expect_str_eq(s, "<not supported>,,instructions:k,0,100.00,,\n");
	cr_expect_eq(fields(s), 7);
	free(s);
}

Test(summary, json_line_per_row_with_perf_keys)
{
	struct summary_row r = {.event = "region-time", .unit = "msec",
				.metric_unit = "ns per page fault"};
	struct json_object *o, *v;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	summary_acc_add(&r.val, 1.5);
	summary_acc_add(&r.val, 2.5);
	summary_acc_add(&r.metric, 300);
	summary_acc_add(&r.metric, 500);
	summary_row_json(f, &r, true);
	fclose(f);
	cr_expect_eq(strchr(out, '\n'), out + strlen(out) - 1, "one line: %s", out);
	o = json_tokener_parse(out);
	cr_assert(o, "valid JSON: %s", out);
	for (const char *const *k = (const char *const[]){"counter-value", "unit", "event",
		"variance", "event-runtime", "pcnt-running", "metric-value", "metric-unit", "runs",
		"min", "max", NULL}; *k; k++)
		cr_expect(json_object_object_get_ex(o, *k, NULL), "key %s in %s", *k, out);
	json_object_object_get_ex(o, "counter-value", &v);
	cr_expect_str_eq(json_object_get_string(v), "2");
	json_object_object_get_ex(o, "max", &v);
	cr_expect_float_eq(json_object_get_double(v), 2.5, 1e-9);
	json_object_put(o);
	free(out);
}

/* A run with a region of 1000 TSC ticks at 1 MHz (1 ms), 10 syscalls over 10 iterations. */
static void fake_run(struct el_run_result *res, uint64_t ticks, bool ok)
{
	memset(res, 0, sizeof(*res));
	res->status = ok ? EL_RUN_OK : EL_RUN_TIMEOUT;
	if (!ok)
		return;
	res->have_run = true;
	res->run.region = (struct el_region){.tsc_begin = 5000, .tsc_end = 5000 + ticks,
					     .tsc_khz = 1000, .syscalls = 10, .iterations = 10,
					     .valid = 1};
}

/* A gettid command of repeat runs and its empty aggregate. */
static void gettid_runs(struct el_cli_run *cli, struct summary_agg *agg, unsigned repeat)
{
	memset(cli, 0, sizeof(*cli));
	request_init(&cli->req);
	cli->req.bench = "gettid";
	cli->req.repeat = repeat;
	summary_agg_init(agg, cli);
}

Test(summary, repeats_fold_into_one_aggregate)
{
	static struct el_cli_run cli;
	static struct summary_agg agg;
	struct el_run_result res;
	char *out = NULL, *line;
	size_t len = 0;
	FILE *f;
	int rows = 0;

	gettid_runs(&cli, &agg, 3);
	fake_run(&res, 1000, true);
	summary_agg_add(&agg, &cli, &res);
	fake_run(&res, 3000, true);
	summary_agg_add(&agg, &cli, &res);
	fake_run(&res, 0, false);
	summary_agg_add(&agg, &cli, &res);
	cr_expect_eq(agg.runs, 3);
	cr_expect_eq(agg.measured, 2, "the timed-out run measured nothing");
	cr_expect_float_eq(agg.rows[0].val.mean, 2.0, 1e-9, "region-time: mean of 1 and 3 ms");
	cr_expect_float_eq(agg.rows[0].metric.mean, 200000.0, 1e-6, "ns per syscall");
	cr_expect_str_eq(agg.rows[0].metric_unit, "ns per syscall");

	f = open_memstream(&out, &len);
	summary_agg_csv(f, &agg, ",");
	fclose(f);
	for (line = out; *line; line = strchr(line, '\n') + 1, rows++)
		cr_expect_eq(fields(line), 8, "row %d: %.*s", rows, (int)strcspn(line, "\n"), line);
	cr_expect_eq(rows, 6, "one set of rows for the three runs");
	cr_expect(strstr(out, "2,msec,region-time,50.00%,2000000,100.00,200000.00,ns per syscall\n"),
		  "%s", out);
	free(out);
}

Test(summary, ipc_where_cycles_and_instructions_both_counted)
{
	static struct el_cli_run cli;
	static struct summary_agg agg;
	struct el_run_result res;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	memset(&cli, 0, sizeof(cli));
	request_init(&cli.req);
	cr_assert_eq(events_parse("cycles:k,instructions:k", &cli.req.ev, err, sizeof(err)), 0);
	cli.spec.nr_events = 2;
	cli.spec.events[0] = 0x003c | EL_EVSEL_OS;
	cli.spec.events[1] = 0x00c0 | EL_EVSEL_OS;
	summary_agg_init(&agg, &cli);
	cr_expect_eq(agg.nipc, 1);
	fake_run(&res, 1000, true);
	res.have_boot = true;
	res.run.nr_counters = 2;
	res.run.counters[0] = (struct el_counter){cli.spec.events[0], 1000, EL_COUNTER_COUNTED};
	res.run.counters[1] = (struct el_counter){cli.spec.events[1], 1690, EL_COUNTER_COUNTED};
	summary_agg_add(&agg, &cli, &res);
	f = open_memstream(&out, &len);
	summary_agg_csv(f, &agg, ",");
	fclose(f);
	/* perf: an extra metric is a row with every earlier field empty */
	cr_expect(strstr(out, "\n,,,,,1.69,insn per cycle (k)\n"), "%s", out);
	free(out);
}

Test(summary, table_line_like_perf_stat)
{
	struct summary_row r = {.event = "syscalls", .unit = "", .metric_unit = "per syscall"};
	struct summary_row none = {.event = "cycles:k", .unit = "",
				   .status = EL_COUNTER_NOT_COUNTED};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	summary_acc_add(&r.val, 1000);
	summary_acc_add(&r.val, 3000);
	summary_acc_add(&r.metric, 1);
	summary_acc_add(&r.metric, 3);
	summary_row_table(f, &r, true, 2);
	summary_row_table(f, &none, true, 2);
	fclose(f);
	cr_expect(strstr(out, "2,000      syscalls"), "%s", out);
	cr_expect(strstr(out, "#       2.00 per syscall"), "%s", out);
	cr_expect(strstr(out, "( +- 50.00% )  min 1,000  max 3,000\n"), "%s", out);
	cr_expect(strstr(out, "<not counted>      cycles:k\n"), "no number, no trailing blanks: %s",
		  out);
	free(out);
}

/* The timer line: interrupts, fallbacks and halts skipped summed over the runs, the worst lateness. */
Test(summary, timer_over_every_run)
{
	static struct el_cli_run cli;
	static struct summary_agg agg;
	static struct el_host_info host = {.kvm = "nested"};
	struct el_run_result res;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	gettid_runs(&cli, &agg, 2);
	fake_run(&res, 1000, true);
	res.run.timer = (struct el_timer_stats){.interrupts = 10, .late_max_ns = 2500000,
						.fallbacks = 3, .halt_skips = 1};
	summary_agg_add(&agg, &cli, &res);
	fake_run(&res, 1000, true);
	res.run.timer = (struct el_timer_stats){.interrupts = 5, .late_max_ns = 1000000,
						.fallbacks = 1};
	summary_agg_add(&agg, &cli, &res);
	f = open_memstream(&out, &len);
	summary_print(f, &cli, &host, &agg, NULL);
	fclose(f);
	cr_expect(strstr(out, "  timer    15 interrupts in all runs, the latest-coming 2.500 ms late, "
			      "4 a period or more late (fallbacks), 1 halts skipped (guest.timer)\n"),
		  "%s", out);
	free(out);
}
