/*
 * Report statistics (harness/report/stats.c, metric.c, report*.c) against values
 * computed by hand: perf's mean and relative standard error, deltas against
 * the baseline, and counters that were not counted never printed as numbers.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-6 * (fabs((double)(b)) + 1))

Test(stats, mean_and_relative_stderr_as_perf)
{
	struct stats s;
	const double v[] = {1, 2, 3, 4};

	stats_init(&s);
	for (unsigned i = 0; i < 4; i++)
		stats_add(&s, v[i]);
	/* mean 2.5; M2 = 2.25+0.25+0.25+2.25 = 5; var = 5/3; stderr = sqrt(5/3/4) */
	cr_expect(NEAR(s.mean, 2.5));
	cr_expect(NEAR(stats_stderr(&s), 0.6454972244));
	cr_expect(NEAR(stats_rel_stderr(&s), 25.819888975), "%f", stats_rel_stderr(&s));
}

Test(stats, large_values_keep_precision)
{
	struct stats s;

	/* perf's seed numbers: 140,118,538 and neighbours; Welford does not cancel */
	stats_init(&s);
	stats_add(&s, 140118538);
	stats_add(&s, 140126608);
	stats_add(&s, 140110468);
	cr_expect(NEAR(s.mean, 140118538));
	/* deviations 0, +8070, -8070: var = 2*8070^2/2; stderr = sqrt(var/3) = 4659.216672 */
	cr_expect(NEAR(stats_stderr(&s), 4659.216672), "%f", stats_stderr(&s));
	cr_expect(NEAR(stats_rel_stderr(&s), 100 * 4659.216672 / 140118538));
}

Test(stats, one_value_and_zero_mean)
{
	struct stats s;

	stats_init(&s);
	stats_add(&s, 42);
	cr_expect_eq(stats_stderr(&s), 0);
	cr_expect_eq(stats_rel_stderr(&s), 0);
	stats_init(&s);
	stats_add(&s, -1);
	stats_add(&s, 1);
	cr_expect_eq(stats_rel_stderr(&s), 0, "mean 0: perf prints 0");
}

Test(stats, delta_percent)
{
	cr_expect(NEAR(stats_delta_pct(110, 100), 10));
	cr_expect(NEAR(stats_delta_pct(6.5, 8.4), -22.6190476));
	cr_expect(NEAR(stats_delta_pct(7528609, 6077741), 23.87183), "%f",
		  stats_delta_pct(7528609, 6077741));
	cr_expect(isnan(stats_delta_pct(1, 0)));
	cr_expect(isnan(stats_delta_pct(NAN, 1)));
}

Test(stats, stddev_min_max)
{
	struct stats s;

	stats_init(&s);
	cr_expect(isnan(s.min) && isnan(s.max), "no values: no min or max");
	stats_add(&s, 3);
	stats_add(&s, 1);
	stats_add(&s, 2);
	cr_expect_eq(s.min, 1);
	cr_expect_eq(s.max, 3);
	cr_expect(NEAR(stats_stddev(&s), 1), "var (1+1+0)/2 = 1: %f", stats_stddev(&s));
}

/* Closed forms: df 1 (Cauchy) p = 1 - 2/pi atan|t|; df 2 p = 1 - |t|/sqrt(2 + t^2). */
Test(stats, t_distribution_closed_forms)
{
	cr_expect(NEAR(stats_t_pvalue(1, 1), 0.5), "%.10f", stats_t_pvalue(1, 1));
	cr_expect(NEAR(stats_t_pvalue(3, 1), 1 - 2 / M_PI * atan(3)));
	cr_expect(NEAR(stats_t_pvalue(2, 2), 1 - 2 / sqrt(6)), "%.10f", stats_t_pvalue(2, 2));
	cr_expect(NEAR(stats_t_pvalue(-2, 2), 1 - 2 / sqrt(6)), "two-sided: symmetric");
	cr_expect(NEAR(stats_t_pvalue(0, 5), 1));
	cr_expect_eq(stats_t_pvalue(INFINITY, 5), 0);
	cr_expect(NEAR(stats_incbeta(0.5, 2, 2), 0.5));
	/* I_x(1, b) = 1 - (1-x)^b */
	cr_expect(NEAR(stats_incbeta(0.3, 1, 3), 1 - pow(0.7, 3)));
	cr_expect(NEAR(stats_incbeta(0.9, 1, 3), 1 - pow(0.1, 3)), "the symmetric branch");
}

/* Two-sided 5% critical values from every t table. */
Test(stats, t_critical_values)
{
	cr_expect(fabs(stats_t_critical(1, 0.05) - 12.7062) < 1e-4, "%f",
		  stats_t_critical(1, 0.05));
	cr_expect(fabs(stats_t_critical(2, 0.05) - 4.3027) < 1e-4);
	cr_expect(fabs(stats_t_critical(4, 0.05) - 2.7764) < 1e-4);
	cr_expect(fabs(stats_t_critical(10, 0.05) - 2.2281) < 1e-4);
	cr_expect(fabs(stats_t_critical(30, 0.05) - 2.0423) < 1e-4);
	cr_expect(fabs(stats_t_critical(1e6, 0.05) - 1.9600) < 1e-4, "the normal limit");
	cr_expect(fabs(stats_t_pvalue(2.2281, 10) - 0.05) < 1e-4);
}

static void fill(struct stats *s, const double *v, unsigned n)
{
	stats_init(s);
	for (unsigned i = 0; i < n; i++)
		stats_add(s, v[i]);
}

Test(stats, welch_by_hand)
{
	struct stats a, b;
	struct welch w;

	/*
	 * a = 1 2 3 4: mean 2.5, var 5/3, var/n = 5/12; b = 3 4 5 6 7: mean 5,
	 * var 2.5, var/n = 0.5.  se = sqrt(11/12) = 0.9574271; t = 2.5/se =
	 * 2.6111648; df = (11/12)^2 / ((5/12)^2/3 + 0.5^2/4) = 6.9807692.
	 * p: between the 5% (2.365) and 2% (2.998) points of df 7.
	 */
	fill(&a, (const double[]){1, 2, 3, 4}, 4);
	fill(&b, (const double[]){3, 4, 5, 6, 7}, 5);
	stats_welch(&a, &b, &w);
	cr_assert(w.tested);
	cr_expect(NEAR(w.diff, 2.5));
	cr_expect(NEAR(w.se, 0.9574271), "%f", w.se);
	cr_expect(NEAR(w.t, 2.6111648), "%f", w.t);
	cr_expect(NEAR(w.df, 6.9807692), "%f", w.df);
	cr_expect(w.p > 0.02 && w.p < 0.05, "%f", w.p);
	cr_expect(NEAR(w.p, stats_t_pvalue(2.6111648, 6.9807692)));
	cr_expect(w.significant);
	/* a = 1 3, b = 3 5: var 2 each, se sqrt 2, t sqrt 2, df 2: p = 1 - sqrt2/2 */
	fill(&a, (const double[]){1, 3}, 2);
	fill(&b, (const double[]){3, 5}, 2);
	stats_welch(&a, &b, &w);
	cr_expect(NEAR(w.df, 2), "%f", w.df);
	cr_expect(NEAR(w.p, 1 - sqrt(2) / 2), "%f", w.p);
	cr_expect(!w.significant, "inside the noise");
}

Test(stats, welch_edge_cases)
{
	struct stats a, b;
	struct welch w;

	fill(&a, (const double[]){5}, 1);
	fill(&b, (const double[]){6, 7}, 2);
	stats_welch(&a, &b, &w);
	cr_expect(!w.tested, "one run: no test");
	cr_expect(!w.significant);
	cr_expect(NEAR(w.diff, 1.5));
	cr_expect(isnan(w.p));
	/* exact counts, no spread: a difference is certain, none is none */
	fill(&a, (const double[]){1, 1, 1}, 3);
	fill(&b, (const double[]){2, 2, 2}, 3);
	stats_welch(&a, &b, &w);
	cr_expect(w.tested && w.significant && w.p == 0);
	fill(&b, (const double[]){1, 1}, 2);
	stats_welch(&a, &b, &w);
	cr_expect(w.tested && !w.significant && NEAR(w.p, 1));
}

/* A record as entrylab writes it, with what the report reads. */
static struct json_object *rec(const char *status, long iters, long ticks, long faults,
			       const char *cycles_status, long cycles)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"schema\":\"entrylab.run/1\",\"status\":\"%s\",\"bench\":{\"name\":\"lseek\","
		 "\"iterations\":%ld},\"request\":{\"cpu\":\"host\",\"append\":\"\"},"
		 "\"host\":{\"cpu_model\":\"Test CPU\",\"kvm\":\"native\",\"pmu\":\"amd-core\"},"
		 "\"guest\":{\"exit_status\":0},"
		 "\"region\":{\"tsc_ticks\":%ld,\"tsc_khz\":2000000,\"syscalls\":%ld,"
		 "\"page_faults\":%ld,\"interrupts\":0,\"exits\":0},"
		 "\"counters\":{\"cycles:k\":{\"value\":%ld,\"markers\":100,\"status\":\"%s\"},"
		 "\"instructions:k\":{\"value\":null,\"status\":\"not-supported\"}}}",
		 status, iters, ticks, iters, faults, cycles, cycles_status);
	return json_tokener_parse(text);
}

static void add(struct report *r, int g, struct json_object *o)
{
	cr_assert(o);
	report_add(r, g, o);
	json_object_put(o);
}

static struct report r;

static void setup(void)
{
	int a, b, c;
	char err[128];

	report_init(&r);
	a = report_group(&r, "base", "lseek", "host", "pti=on");
	b = report_group(&r, "fast", "lseek", "host", "pti=off");
	c = report_group(&r, "gone", "lseek", "host,+pcid", "");
	/* base: 1000 iterations, 2000/2200/2400 ticks at 2 GHz: 1.0/1.1/1.2 ns per iteration */
	add(&r, a, rec("ok", 1000, 2000, 0, "counted", 5000));
	add(&r, a, rec("ok", 1000, 2200, 0, "counted", 6000));
	add(&r, a, rec("ok", 1000, 2400, 0, "counted", 7000));
	/* fast: 0.9 ns twice; one run counted cycles, one did not; one failed run */
	add(&r, b, rec("ok", 1000, 1800, 10, "counted", 4000));
	add(&r, b, rec("ok", 1000, 1800, 10, "not-counted", 0));
	add(&r, b, rec("guest-crash", 1000, 1, 0, "counted", 1));
	add(&r, c, rec("unsupported", 1000, 1, 0, "counted", 1));
	r.base = 0;
	report_resolve_baselines(&r);
	cr_assert_eq(report_metric(&r, "ns", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "cycles:k", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "instructions:k", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "ns/page_faults", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "iterations/s", NULL, 0, err, sizeof(err)), 0);
}

static void teardown(void)
{
	report_free(&r);
}

TestSuite(report, .init = setup, .fini = teardown);

Test(report, runs_are_classified)
{
	cr_expect_eq(r.g[0].ok, 3);
	cr_expect_eq(r.g[1].ok, 2);
	cr_expect_eq(r.g[1].failed, 1);
	cr_expect_eq(r.g[2].skipped, 1);
	cr_expect_eq(r.g[2].ok, 0);
	cr_expect_str_eq(r.g[1].reason, "guest-crash");
}

Test(report, means_stderr_and_deltas)
{
	struct report_cell c;

	report_cell(&r, 0, 0, &c);
	cr_expect_eq(c.status, MS_OK);
	cr_expect(NEAR(c.mean, 1.1), "%f", c.mean);
	/* 1.0, 1.1, 1.2: var 0.01, stderr sqrt(0.01/3) = 0.057735, 5.2486% of 1.1 */
	cr_expect(NEAR(c.rse, 5.24863881), "%f", c.rse);
	cr_expect(isnan(c.delta), "the baseline has no delta");
	report_cell(&r, 1, 0, &c);
	cr_expect(NEAR(c.mean, 0.9));
	cr_expect(NEAR(c.rse, 0));
	cr_expect(NEAR(c.delta, -18.1818182), "%f", c.delta);
	/* iterations/s: 1000 / 1.1e-6 s in the baseline, a rate */
	report_cell(&r, 0, 4, &c);
	cr_expect(NEAR(c.mean, (1000 / 1e-6 + 1000 / 1.1e-6 + 1000 / 1.2e-6) / 3), "%f", c.mean);
}

Test(report, counters_not_counted_are_not_numbers)
{
	struct report_cell c;

	report_cell(&r, 0, 1, &c);
	cr_expect_eq(c.status, MS_OK);
	/* (5000, 6000, 7000 less 100 of markers) / 1000 iterations */
	cr_expect(NEAR(c.mean, 5.9), "cycles per iteration: %f", c.mean);
	/* counted in one of two runs: the mean is over that one, and says so */
	report_cell(&r, 1, 1, &c);
	cr_expect_eq(c.n, 1);
	cr_expect_eq(c.runs, 2);
	cr_expect(NEAR(c.mean, 3.9));
	cr_expect(NEAR(c.delta, -33.8983051), "%f", c.delta);
	report_cell(&r, 0, 2, &c);
	cr_expect_eq(c.status, MS_NOT_SUPPORTED);
	cr_expect_eq(c.n, 0);
	/* no page faults in the baseline: ns/page_faults has no value there */
	report_cell(&r, 0, 3, &c);
	cr_expect_eq(c.status, MS_MISSING);
	report_cell(&r, 1, 3, &c);
	cr_expect(NEAR(c.mean, 90), "900 ns over 10 faults: %f", c.mean);
	cr_expect(isnan(c.delta), "no delta against a baseline without a value");
}

static char *table(void (*print)(FILE *, const struct report *))
{
	/* static: the stream owns the buffer until fclose, gcc cannot see that */
	static char *buf;
	static size_t len;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);

	print(f, &r);
	fclose(f);
	return buf;
}

static void csv(FILE *f, const struct report *rep)
{
	report_print_csv(f, rep, ";");
}

Test(report, table_prints_perf_conventions)
{
	char *t = table(report_print_table), *line;

	cr_log_info("%s", t);
	cr_expect(strstr(t, "( +-  5.25% )"), "%s", t);
	cr_expect(strstr(t, "-18.18%"));
	cr_expect(strstr(t, "baseline"));
	cr_expect(strstr(t, "(counted in 1 of 2 runs)"));
	cr_expect(strstr(t, "<skipped>"));
	cr_expect(strstr(t, "skipped: unsupported"), "the reason of the skip");
	/* the instructions:k rows carry the marker and no number */
	line = strstr(t, "instructions:k/iter");
	cr_assert(line);
	line = strstr(line, "\n  base");
	cr_assert(line);
	cr_expect(!strncmp(strstr(line, "base") + 4 + strspn(strstr(line, "base") + 4, " "),
			   "<not supported>", 15), "%.60s", line);
	free(t);
}

Test(report, csv_and_json_lines)
{
	char *t = table(csv);
	char *j = table(report_print_json);

	cr_log_info("%s\n%s", t, j);
	/* summary.csv's columns; fast vs base by hand: se sqrt(0.01/3), t -3.464, df 2, p 0.0742 */
	cr_expect(strstr(t, "base;lseek;host;pti=on;ns;ns/iter;3;1.1;0.1;5.25%;1;1.2;1100;1.1;"
			    "base;;;;;-;-;3;0;0\n"), "%s", t);
	cr_expect(strstr(t, "fast;lseek;host;pti=off;ns;ns/iter;2;0.9;0;0.00%;0.9;0.9;900;0.9;base;"
			    "-0.2;-18.18%;0.0577350269189625;0.07417990022744"), "%s", t);
	cr_expect(strstr(t, ";no;welch-t;2;1;0\n"), "inside the noise: %s", t);
	cr_expect(strstr(t, "base;lseek;host;pti=on;instructions:k;instructions:k/iter;0;"
			    "not-supported;;;;;;;base;;;;;-;-;3;0;0\n"), "%s", t);
	cr_expect(strstr(t, "gone;lseek;\"host,+pcid\";;ns;ns/iter;0;skipped;") ||
		  strstr(t, "gone;lseek;host,+pcid;;ns;ns/iter;0;skipped;;;;;;;base;;;;;-;-;0;0;"
			    "1\n"),
		  "%s", t);
	cr_expect(strstr(t, ";IPC:k;"), "IPC derived from cycles:k and instructions:k: %s", t);
	cr_expect(strstr(j, "\"status\":\"not-supported\",\"mean\":null"), "%s", j);
	cr_expect(strstr(j, "\"status\":\"skipped\""), "%s", j);
	cr_expect(strstr(j, "\"change\":-0.2") && strstr(j, "\"p_value\":0.0741"), "%s", j);
	cr_expect(strstr(j, "\"significant\":false,\"test\":\"within noise (p=0.074)\""),
		  "%s", j);
	free(t);
	free(j);
}

Test(report, baseline_of_another_bench)
{
	struct report q;

	report_init(&q);
	report_group(&q, "gettid", "gettid", "host", "");
	report_group(&q, "irq-a", "irq", "host", "");
	report_group(&q, "irq-b", "irq", "host", "");
	q.base = 0;
	report_resolve_baselines(&q);
	cr_expect_eq(q.g[0].baseline, 0);
	cr_expect_eq(q.g[1].baseline, 1);
	cr_expect_eq(q.g[2].baseline, 1);
	report_free(&q);
}

Test(report, value_format)
{
	char b[48];

	report_format_value(140118538.0, -1, b, sizeof(b));
	cr_expect_str_eq(b, "140,118,538.00");
	report_format_value(-1234.5, -1, b, sizeof(b));
	cr_expect_str_eq(b, "-1,234.50");
	report_format_value(999.994, -1, b, sizeof(b));
	cr_expect_str_eq(b, "999.99");
	report_format_value(0.12345, -1, b, sizeof(b));
	cr_expect_str_eq(b, "0.1235");
	report_format_value(0, -1, b, sizeof(b));
	cr_expect_str_eq(b, "0");
}

Test(report, metric_names)
{
	struct metric m;
	char err[256];
	const char *ev[] = {"cpu/event=0x3c/", "cycles:k"};

	cr_expect_eq(metric_parse("ns", NULL, 0, &m, err, sizeof(err)), 0);
	cr_expect_str_eq(m.label, "ns/iter");
	cr_expect_eq(metric_parse("instructions:k/cycles:k", NULL, 0, &m, err, sizeof(err)), 0);
	cr_expect_str_eq(m.label, "instructions:k/cycles:k");
	cr_expect_eq(metric_parse("cpu/event=0x3c/", ev, 2, &m, err, sizeof(err)), 0,
		     "an event name with slashes is one counter");
	cr_expect_eq(m.num.base, MB_COUNTER);
	cr_expect_eq(metric_parse("cycles:u", ev, 2, &m, err, sizeof(err)), -1);
	cr_expect(strstr(err, "add it to events"), "%s", err);
	cr_expect_eq(metric_parse("ns/", NULL, 0, &m, err, sizeof(err)), -1);
}

Test(metric, trace_records)
{
	struct metric m[8];
	double v;
	struct json_object *rec = json_tokener_parse(
		"{\"bench\":{\"iterations\":10},\"trace\":{\"user\":100,\"kernel\":250}}");
	size_t n = metric_defaults(m, 8, true);

	cr_assert_eq(n, 2, "traces compare kernel and user instruction counts");
	cr_assert_eq(metric_eval(&m[0], rec, &v), MS_OK);
	cr_expect_eq(v, 25.0, "kernel instructions per iteration");
	cr_assert_eq(metric_eval(&m[1], rec, &v), MS_OK);
	cr_expect_eq(v, 10.0, "user instructions per iteration");
	cr_expect_eq(metric_defaults(m, 8, false), 5, "runs keep the timed-region metrics");
	cr_expect_eq(metric_eval(&m[0], rec, &v), MS_MISSING, "a trace has no TSC region");
	json_object_put(rec);
}
