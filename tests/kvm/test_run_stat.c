/*
 * `entrylab run -r N` end to end: one perf-stat-like aggregate after the
 * runs (not N reports), -x rows with perf stat's columns on every row,
 * --json one object per line, and the record's iteration unit.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(run_stat, .timeout = 600);

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

Test(run_stat, repeat_csv_rows_have_perf_columns)
{
	const char *out = tmp_output("run-stat-csv.jsonl");
	struct el_proc p;
	int rows = 0;

	entrylab(&p, "run", "-r", "3", "-x", ",", "-e", "cycles:k", "-o", out, "getpid", "200",
		 NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect_eq(record_count(out), 3, "a record per run");
	for (const char *line = p.out; *line; rows++) {
		const char *end = strchr(line, '\n');
		int fields = 1;

		cr_assert(end, "rows end with a newline: %s", line);
		for (const char *c = line; c < end; c++)
			fields += *c == ',';
		/* value,unit,event,variance,run time,pcnt,metric,metric unit (perf stat 6.1 -r N) */
		cr_expect_eq(fields, 8, "row %d has perf's 8 columns: %.*s", rows, (int)(end - line),
			     line);
		line = end + 1;
	}
	cr_expect_eq(rows, 7, "one aggregate: 6 region rows and the counter\n%s", p.out);
	cr_expect_eq(count(p.out, ",syscalls,"), 1, "%s", p.out);
	cr_expect(strstr(p.out, "200,,syscalls,0.00%,"), "200 syscalls in every run: %s", p.out);
	cr_expect_eq(count(p.err, "entrylab run: "), 3, "a progress line per run: %s", p.err);
	proc_free(&p);
}

Test(run_stat, repeat_table_is_one_aggregate)
{
	const char *out = tmp_output("run-stat-table.jsonl");
	struct el_proc p;

	entrylab(&p, "run", "-r", "2", "-o", out, "pagefault", "256K", "2", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect_eq(count(p.out, "Performance counter stats for 'pagefault 256K 2' (2 runs):"), 1,
		     "%s", p.out);
	cr_expect_eq(count(p.out, "entrylab run pagefault"), 1, "one header: %s", p.out);
	cr_expect(strstr(p.out, "ns per page fault"), "%s", p.out);
	cr_expect(strstr(p.out, "( +- "), "perf's noise: %s", p.out);
	cr_expect(strstr(p.out, "seconds time elapsed"), "%s", p.out);
	proc_free(&p);
}

Test(run_stat, json_lines_and_fault_iterations)
{
	const char *out = tmp_output("run-stat-json.jsonl");
	struct json_object *rec;
	struct el_proc p;
	int lines = 0;

	entrylab(&p, "run", "--json", "-o", out, "pagefault", "256K", "3", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	for (const char *line = p.out; *line; lines++) {
		const char *end = strchr(line, '\n');
		char buf[1024];
		struct json_object *o;

		cr_assert(end && (size_t)(end - line) < sizeof(buf));
		memcpy(buf, line, (size_t)(end - line));
		buf[end - line] = '\0';
		o = json_tokener_parse(buf);
		cr_expect(o && jget(o, "event") && jget(o, "counter-value"), "line %d: %s", lines,
			  buf);
		json_object_put(o);
		line = end + 1;
	}
	cr_expect_eq(lines, 6, "%s", p.out);
	rec = last_record(out);
	cr_assert(rec);
	/* 256 KiB / 4 KiB x 3 rounds: the iteration is a fault. */
	cr_expect_eq(json_object_get_int64(jget(rec, "bench.iterations")), 192);
	cr_expect_str_eq(jstr(rec, "bench.unit"), "page fault");
	cr_expect_eq(json_object_get_int64(jget(rec, "bench.rounds")), 3);
	cr_expect_eq(json_object_get_int64(jget(rec, "bench.size")), 256 * 1024);
	json_object_put(rec);
	proc_free(&p);
}

Test(run_stat, trace_divides_by_faults)
{
	const char *out = tmp_output("run-stat-trace.jsonl");
	struct json_object *rec;
	struct el_proc p;
	double kernel;

	entrylab(&p, "trace", "-o", out, "pagefault", "1M", "2", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_eq(json_object_get_int64(jget(rec, "bench.iterations")), 512, "faults, not rounds");
	cr_expect_eq(json_object_get_int64(jget(rec, "trace.iterations")), 512);
	kernel = json_object_get_double(jget(rec, "trace.per_iter.kernel"));
	/* A zero-page fault is a few hundred kernel instructions; a round of 256 is ~100k. */
	cr_expect(kernel > 100 && kernel < 2000, "kernel instructions per fault: %.1f", kernel);
	json_object_put(rec);
	proc_free(&p);
}
