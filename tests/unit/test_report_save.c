/*
 * The saved report (harness/report/report_save.c and friends) of a
 * synthetic pti-global-like report: summary.csv's columns, report.md in the
 * seed's shape (rows, lseeks/s, change and %), the SVG charts (well-formed,
 * one bar per variant with a value), headline parsing, the near-zero rule
 * and totals.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "report.h"
#include "report_save.h"

/* An lseek run: iters iterations in ns nanoseconds (1 GHz TSC), syscalls, counters not supported. */
static struct json_object *run(long iters, long ns, long syscalls)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"status\":\"ok\",\"bench\":{\"name\":\"lseek\",\"args\":[\"%ld\"],"
		 "\"iterations\":%ld},\"host\":{\"cpu_model\":\"Test CPU\",\"kernel\":\"6.1\","
		 "\"kvm\":\"nested\",\"pmu\":\"none\"},\"guest\":{\"exit_status\":0,\"cr4\":\"0x1\","
		 "\"config\":{\"pti\":\"on\",\"pcid\":\"off\"},\"requested\":{\"pti\":\"on\","
		 "\"pcid\":\"on\"}},\"region\":{\"tsc_ticks\":%ld,\"tsc_khz\":1000000,"
		 "\"syscalls\":%ld,\"page_faults\":0,\"interrupts\":0,\"exits\":0},"
		 "\"counters\":{\"cycles\":{\"value\":null,\"status\":\"not-supported\"},"
		 "\"instructions\":{\"value\":null,\"status\":\"not-supported\"}}}",
		 iters, iters, ns, syscalls);
	return json_tokener_parse(text);
}

static void add(struct report *r, int g, struct json_object *o)
{
	cr_assert(o);
	report_add(r, g, o);
	json_object_put(o);
}

static struct report r;
static char dir[64];

static const struct report_row rows[] = {
	{"none", "no global", "without PCID"},
	{"entry", "entry text", "without PCID"},
	{"all", "all text", "without PCID"},
	{"none-pcid", "no global", "with PCID"},
};

static const struct report_meta meta = {
	.experiment = "pti-global",
	.seed = "002",
	.description = "lseek with PTI on",
	.command = "entrylab matrix pti-global -r 3",
	.runs_file = "runs.jsonl",
	.planned = 12,
	.kept = 9,
	.headline = "iterations/s as lseeks/s, ns, syscalls",
	.rows = rows,
	.nrows = 4,
};

static void setup(void)
{
	int g[4];
	char err[128];

	report_init(&r);
	g[0] = report_group(&r, "none", "lseek", "host,-pcid", "pti=on pti.global=none");
	g[1] = report_group(&r, "entry", "lseek", "host,-pcid", "pti=on pti.global=entry");
	g[2] = report_group(&r, "all", "lseek", "host,-pcid", "pti=on pti.global=all");
	g[3] = report_group(&r, "none-pcid", "lseek", "host,+pcid", "pti=on pti.global=none");
	/* 1000 iterations in 1000/1010/990 us; entry 800/810/790 us; all one run */
	add(&r, g[0], run(1000, 1000000, 3));
	add(&r, g[0], run(1000, 1010000, 3));
	add(&r, g[0], run(1000, 990000, 3));
	add(&r, g[1], run(1000, 800000, 1003));
	add(&r, g[1], run(1000, 810000, 1003));
	add(&r, g[1], run(1000, 790000, 1003));
	add(&r, g[2], run(1000, 700000, 3));
	add(&r, g[3],
	    json_tokener_parse("{\"status\":\"unsupported\",\"detail\":\"skipped: this "
			       "host's KVM does not offer pcid\"}"));
	r.base = 0;
	report_resolve_baselines(&r);
	cr_assert_eq(report_metric(&r, "iterations/s", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "ns", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "cycles", NULL, 0, err, sizeof(err)), 0);
	cr_assert_eq(report_metric(&r, "instructions", NULL, 0, err, sizeof(err)), 0);
	snprintf(dir, sizeof(dir), "/tmp/el-report-XXXXXX");
	cr_assert(mkdtemp(dir));
	cr_assert_eq(report_save(&r, dir, &meta, err, sizeof(err)), 0, "%s", err);
}

static void teardown(void)
{
	char cmd[128];

	report_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

static char *slurp(const char *name)
{
	char path[256], err[512];
	size_t len;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = io_read_file(path, 64u << 20, &len, err, sizeof(err));
	cr_assert(buf, "%s was not written: %s", path, err);
	return buf;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

TestSuite(report_save, .init = setup, .fini = teardown);

Test(report_save, summary_csv_columns_and_rows)
{
	char *csv = slurp("summary.csv"), *nl = strchr(csv, '\n');

	cr_assert(nl);
	cr_expect(!strncmp(csv,
			   "variant,bench,cpu,append,metric,unit,n,mean,stddev,rse%,min,max,"
			   "total,per_iter,baseline,abs_change,pct_change,change_stderr,p_value,"
			   "significant,test,runs_ok,runs_failed,runs_skipped\n",
			   (size_t)(nl - csv + 1)),
		  "%.*s", (int)(nl - csv), csv);
	/* 4 groups x (4 metrics + syscalls from the headline + IPC) + the header */
	cr_expect_eq(count(csv, "\n"), 1 + 4 * 6, "%s", csv);
	/* a cpu with a comma is quoted; the skipped group has no number */
	cr_expect(strstr(csv, "none-pcid,lseek,\"host,+pcid\",pti=on pti.global=none,ns,ns/iter,0,"
			      "skipped,"),
		  "%s", csv);
	cr_expect(strstr(csv, "none,lseek,\"host,-pcid\",pti=on pti.global=none,cycles,cycles/iter,0,"
			      "not-supported,"),
		  "%s", csv);
	/* ns per iteration 1000 (stddev 10); total 1e6 ns per run */
	cr_expect(strstr(csv,
			 ",ns,ns/iter,3,1000,10,0.58%,990,1010,1000000,1000,none,,,,,-,-,3,0,0\n"),
		  "%s", csv);
	/* entry: -200 ns +- sqrt(100/3 + 100/3) = 8.164966, significant */
	cr_expect(strstr(csv, ",ns,ns/iter,3,800,10,0.72%,790,810,800000,800,none,-200,-20.00%,"
			      "8.16496580927726,"),
		  "%s", csv);
	cr_expect(strstr(csv, "all,lseek,\"host,-pcid\",pti=on pti.global=all,ns,ns/iter,1,700,,,"
			      "700,700,700000,700,none,-300,-30.00%,,,-,none (<2 runs),1,0,0\n"),
		  "%s", csv);
	/* the near-zero rule: 0.003 syscalls per iteration is ~0, no % against it */
	cr_expect(strstr(csv, ",syscalls,syscalls/iter,3,1.003,0,0.00%,1.003,1.003,1003,1.003,none,"
			      "1,n/a (baseline ~0),"),
		  "%s", csv);
	free(csv);
}

Test(report_save, report_md_has_the_seed_shape)
{
	char *md = slurp("report.md");

	cr_log_info("%s", md);
	cr_expect(strstr(md, "# pti-global (seed 002)\n"), "title");
	cr_expect(strstr(md, "`entrylab matrix pti-global -r 3`"), "the command");
	cr_expect(strstr(md, "### without PCID\n"));
	cr_expect(strstr(md, "### with PCID\n"));
	cr_expect(strstr(md, "| | lseeks/s | change | % | outside the noise? |"), "%s", md);
	cr_expect(strstr(md, "| no global (baseline) | 1,000,067 (± 0.58%) | baseline |"), "%s", md);
	/* the rates' means: (1e6 + 1e6/1.01 + 1e6/0.99) / 3; +25% lseeks/s, significant */
	cr_expect(strstr(md, "| entry text | 1,250,130 (± 0.72%) | +250,064 ± "), "%s", md);
	cr_expect(strstr(md, "| +25.00% ± "), "%s", md);
	cr_expect(strstr(md, "| yes (p="), "%s", md);
	cr_expect(strstr(md, "no test (fewer than 2 runs)"), "all has one run");
	cr_expect(strstr(md, "- entry text vs no global: 1,000,067 lseeks/s -> 1,250,130 lseeks/s, "
			     "+250,064 lseeks/s (+25.0%); bigger than the run-to-run variance"),
		  "%s", md);
	cr_expect(strstr(md, "| no global | skipped |"), "%s", md);
	cr_expect(strstr(md, "this host's KVM does not offer pcid"), "the skip reason");
	cr_expect(strstr(md, "9 of 12 planned runs kept"));
	cr_expect(strstr(md, "nested runner"), "the caveat");
	cr_expect(strstr(md, "`not-supported`, never a number"));
	cr_expect(strstr(md, "pcid on->off"), "requested but not in effect");
	cr_expect(strstr(md, "Welch's t-test"), "the test is named");
	cr_expect(strstr(md, "(pti-global-lseeks_s.svg)"), "the chart is linked");
	cr_expect(!strstr(md, "nan") && !strstr(md, "inf"), "no NaN printed");
	cr_expect(strstr(md,
			 "0.0030 syscalls/iter -> 1.00 syscalls/iter, +1.0000 syscalls/iter (no %: the baseline is ~0)"),
		  "%s", md);
	free(md);
}

/* Minimal XML check: tags nest and close, attributes' quotes pair. */
static bool well_formed(const char *s)
{
	char stack[32][32];
	int depth = 0;

	while ((s = strchr(s, '<'))) {
		const char *end = strchr(s, '>');
		size_t n;

		if (!end || count(s, "\"") % 2)
			return false;
		if (s[1] == '?') {
			s = end;
			continue;
		}
		if (s[1] == '/') {
			n = strcspn(s + 2, " >");
			if (!depth || strncmp(stack[depth - 1], s + 2, n) || stack[depth - 1][n])
				return false;
			depth--;
		} else if (end[-1] != '/') {
			n = strcspn(s + 1, " >");
			if (depth == 32 || n >= 32)
				return false;
			memcpy(stack[depth], s + 1, n);
			stack[depth++][n] = '\0';
		}
		s = end;
	}
	return depth == 0;
}

Test(report_save, svg_charts)
{
	char *svg = slurp("pti-global-lseeks_s.svg");

	cr_expect(!strncmp(svg, "<?xml", 5));
	cr_expect(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	cr_expect(well_formed(svg), "%s", svg);
	cr_expect_eq(count(svg, "<rect class=\"bar\""), 3, "one bar per variant with a value");
	cr_expect_eq(count(svg, "class=\"err\""), 2, "error bars where there are two runs");
	cr_expect_eq(count(svg, "class=\"novalue\""), 1, "the skipped variant");
	cr_expect(strstr(svg, "95% confidence interval"), "says what the error bars are");
	cr_expect(strstr(svg, ">lseeks/s</text>"), "the axis unit");
	free(svg);
	svg = slurp("pti-global-ns_iter.svg");
	cr_expect(well_formed(svg));
	free(svg);
}

Test(report_save, headline_parse)
{
	struct report_headline h[4];
	char err[256];

	cr_expect_eq(report_headline_parse("s/run as s, ns/page_faults as ns/fault", NULL, 0, h, 4,
					   err, sizeof(err)),
		     2);
	cr_expect_str_eq(h[0].unit, "s");
	cr_expect_str_eq(h[0].m.text, "s/run");
	cr_expect_str_eq(h[1].unit, "ns/fault");
	cr_expect_eq(report_headline_parse("cycles:k", NULL, 0, h, 4, err, sizeof(err)), 1);
	cr_expect_str_eq(h[0].unit, "cycles:k/iter", "no unit: the label");
	cr_expect_eq(report_headline_parse("ns as ", NULL, 0, h, 4, err, sizeof(err)), -1);
	cr_expect(strstr(err, "after 'as'"), "%s", err);
	cr_expect_eq(report_headline_parse("a, b, c, d, e", NULL, 0, h, 4, err, sizeof(err)), -1);
	cr_expect_eq(report_headline_parse("run", NULL, 0, h, 4, err, sizeof(err)), -1,
		     "run is only a denominator");
}

Test(report_save, totals_and_other_bench)
{
	struct report q;
	struct report_cell c;
	struct metric m;
	char err[128];

	report_init(&q);
	report_group(&q, "a", "lseek", "host", "");
	report_group(&q, "b", "getpid", "host", "");
	add(&q, 0, run(1000, 1000000, 3));
	add(&q, 0, run(1000, 3000000, 3));
	add(&q, 1, run(500, 1000000, 3));
	q.base = 0;
	report_resolve_baselines(&q);
	q.g[1].baseline = 0; /* forced: another bench */
	cr_assert_eq(metric_parse("s/run", NULL, 0, &m, err, sizeof(err)), 0);
	report_cell_of(&q, 0, &m, &c);
	cr_expect(fabs(c.mean - 0.002) < 1e-12, "total seconds: %g", c.mean);
	cr_expect(fabs(c.total - 0.002) < 1e-12);
	cr_expect(fabs(c.per_iter - 2e-6) < 1e-15, "per iteration: %g", c.per_iter);
	report_cell_of(&q, 1, &m, &c);
	cr_expect_eq(c.no_delta, ND_OTHER_KIND, "no change against another bench");
	cr_expect(isnan(c.delta));
	report_free(&q);
}

/* vdso-off's syscalls against a vDSO baseline: 3 syscalls in 100000 iterations is ~0. */
Test(report_save, near_zero_rule)
{
	struct report q;
	struct report_cell c;
	struct metric m;
	char err[128];

	report_init(&q);
	report_group(&q, "vdso", "lseek", "host", "");
	report_group(&q, "vdso-off", "lseek", "host", "vdso=off");
	report_group(&q, "noisy", "lseek", "host", "");
	report_group(&q, "noisy-b", "lseek", "host", "");
	add(&q, 0, run(100000, 1000000, 3));
	add(&q, 0, run(100000, 1000000, 3));
	add(&q, 1, run(100000, 9000000, 100003));
	add(&q, 1, run(100000, 9000000, 100003));
	q.base = 0;
	report_resolve_baselines(&q);
	cr_assert_eq(metric_parse("syscalls", NULL, 0, &m, err, sizeof(err)), 0);
	report_cell_of(&q, 1, &m, &c);
	cr_expect_eq(c.no_delta, ND_NEAR_ZERO, "not +3333233%%: %f", c.delta);
	cr_expect(isnan(c.delta));
	cr_expect(c.compared && fabs(c.w.diff - 1) < 1e-9, "the absolute change stays");
	cr_expect_str_eq(report_no_delta_text(c.no_delta), "n/a (baseline ~0)");
	/* syscalls per run (a total): 3 is not ~0 by the event floor, but under 1% of 100003 */
	cr_assert_eq(metric_parse("syscalls/run", NULL, 0, &m, err, sizeof(err)), 0);
	report_cell_of(&q, 1, &m, &c);
	cr_expect_eq(c.no_delta, ND_NEAR_ZERO);
	/* a baseline within two standard errors of 0: ns of -1 and +1.5 per iteration */
	q.g[3].baseline = 2;
	q.g[2].baseline = 2;
	add(&q, 2, run(1, 1, 0));
	add(&q, 2, run(1, 5, 0));
	add(&q, 3, run(1, 100, 0));
	add(&q, 3, run(1, 110, 0));
	cr_assert_eq(metric_parse("ns", NULL, 0, &m, err, sizeof(err)), 0);
	report_cell_of(&q, 3, &m, &c);
	/* base 1 and 5 ns: mean 3, stderr 2 -> 3 <= 2 * 2: ~0 */
	cr_expect_eq(c.no_delta, ND_NEAR_ZERO, "%f", c.delta);
	/* the ordinary case still has its % */
	report_cell_of(&q, 1, &m, &c);
	cr_expect_eq(c.no_delta, ND_NONE);
	cr_expect(fabs(c.delta - 800) < 1e-9, "%f", c.delta);
	report_free(&q);
}

/* A matrix interrupted before its first run still leaves whole files that say so. */
Test(report_save, nothing_kept)
{
	struct report q;
	struct report_meta im = meta;
	char err[256], *md;

	report_init(&q);
	report_group(&q, "none", "lseek", "host,-pcid", "");
	im.kept = 0;
	im.interrupted = 1;
	cr_assert_eq(report_save(&q, dir, &im, err, sizeof(err)), 0, "%s", err);
	md = slurp("report.md");
	cr_expect(strstr(md, "**Interrupted**: 0 of 12 planned runs kept"), "%s", md);
	cr_expect(strstr(md, "No run completed"), "%s", md);
	cr_expect(strstr(md, "| no global | not run | | | | not run |"), "%s", md);
	free(md);
	report_free(&q);
	cr_expect_neq(report_save(&q, "/nonexistent/dir", &im, err, sizeof(err)), 0);
	cr_expect(strstr(err, "cannot write /nonexistent/dir/.summary.csv.tmp"), "%s", err);
}

/* gettid with counters, as seed 003's PRE/POST: totals like perf stat, IPC, the noise verdict. */
static struct json_object *counted(long cycles, long insns)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"status\":\"ok\",\"bench\":{\"name\":\"gettid\",\"iterations\":1000000},"
		 "\"host\":{\"cpu_model\":\"Test CPU\",\"kvm\":\"native\",\"pmu\":\"intel-v2\"},"
		 "\"guest\":{\"exit_status\":0},\"region\":{\"tsc_ticks\":1,\"tsc_khz\":1},"
		 "\"counters\":{\"cycles:k\":{\"value\":%ld,\"markers\":0,\"status\":\"counted\"},"
		 "\"instructions:k\":{\"value\":%ld,\"markers\":0,\"status\":\"counted\"}}}",
		 cycles, insns);
	return json_tokener_parse(text);
}

Test(report_save, perf_stat_shape)
{
	static const struct report_row rows3[] = {
		{"post", "POST (direct)", "gettid"},
		{"pre", "PRE (trampoline)", "gettid"},
	};
	struct report_meta m3 = {
		.experiment = "irq-return",
		.seed = "003",
		.headline = "cycles:k/run as cycles:k, instructions:k/run as instructions:k",
		.rows = rows3,
		.nrows = 2,
	};
	struct report q;
	char err[256], *md;

	report_init(&q);
	report_group(&q, "post", "gettid", "host", "entry.irq_return=direct");
	report_group(&q, "pre", "gettid", "host", "entry.irq_return=trampoline");
	add(&q, 0, counted(140026608, 236696176));
	add(&q, 0, counted(140036608, 236696176));
	add(&q, 1, counted(140118538, 236692878));
	add(&q, 1, counted(139918538, 236692878));
	q.base = 0;
	report_resolve_baselines(&q);
	cr_assert_eq(report_save(&q, dir, &m3, err, sizeof(err)), 0, "%s", err);
	md = slurp("report.md");
	cr_log_info("%s", md);
	cr_expect(strstr(md, "| | cycles:k (whole run) | change | % | outside the noise? | "
			     "instructions:k (whole run) |"), "%s", md);
	cr_expect(strstr(md, "POST (direct):\n         140,031,608      cycles:k"), "%s", md);
	cr_expect(strstr(md, "236,696,176      instructions:k     #   1.69 insn per cycle"), "%s",
		  md);
	cr_expect(strstr(md, "- PRE (trampoline) vs POST (direct): 140,031,608 cycles:k -> "
			     "140,018,538 cycles:k, -13,070 cycles:k (-0.01%); the run-to-run "
			     "variance is bigger than the difference"), "%s", md);
	free(md);
	report_free(&q);
}

Test(report_save, one_chart_file_per_headline_metric)
{
	struct report_meta m2 = meta;
	char err[256], path[128];

	m2.headline = "ns as ns, ns/syscalls as ns";
	cr_assert_eq(report_save(&r, dir, &m2, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/pti-global-ns.svg", dir);
	cr_expect_eq(access(path, R_OK), 0, "%s", path);
	snprintf(path, sizeof(path), "%s/pti-global-ns-2.svg", dir);
	cr_expect_eq(access(path, R_OK), 0, "the second one in the same unit: %s", path);
}
