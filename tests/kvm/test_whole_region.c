/*
 * Whole-program regions (abi.h enum el_region_scope): a program
 * that never marks a region is measured whole, from its first user-mode
 * instruction after exec to its exit, its children included; --region
 * chooses the scope explicitly, and marked programs keep their figures.
 * wholecheck (tests/guest/wholecheck.c) has no markers of its own.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define WHOLECHECK EL_BINARY_DIR "/guest/wholecheck"

TestSuite(whole_region, .timeout = 900);

/*
 * `entrylab run -o OUT ARGS...` (ARGS NULL-terminated, at most 24); checks
 * the exit status and returns the record (caller puts it).
 */
static struct json_object *run(const char *out, int want, const char *const *args)
{
	const char *argv[32] = {EL_ENTRYLAB, "run", "-o", tmp_output(out)};
	struct json_object *rec;
	struct el_proc p;
	int n = 4;

	while (*args && n < 30)
		argv[n++] = *args++;
	argv[n] = NULL;
	proc_run(&p, argv);
	cr_expect_eq(p.status, want, "%s: exit %d, want %d\n%s", out, p.status, want, p.err);
	rec = last_record(argv[3]);
	cr_assert(rec, "%s: no record\n%s", out, p.err);
	proc_free(&p);
	return rec;
}

static int64_t jint(struct json_object *rec, const char *path)
{
	struct json_object *v = jget(rec, path);

	cr_assert(v && json_object_is_type(v, json_type_int), "%s is not a number: %s", path,
		  v ? json_object_to_json_string(v) : "absent or null");
	return json_object_get_int64(v);
}

/* A whole-program region: said so, and counted (never 0 ticks, never null). */
static void expect_whole(struct json_object *rec, const char *what)
{
	cr_expect_str_eq(jstr(rec, "region.scope"), "whole-program", "%s", what);
	cr_expect_gt(jint(rec, "region.tsc_ticks"), 0, "%s", what);
}

Test(whole_region, unmarked_program_is_measured_whole)
{
	const char *const args[] = {"--region", "whole", "--exec", WHOLECHECK, "fork", "64", NULL};
	struct json_object *rec = run("fork64.jsonl", 0, args);

	expect_whole(rec, "fork 64");
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	/* The parent's fork, wait4, write and exit_group; the child's mmap and exit_group. */
	cr_expect_geq(jint(rec, "region.syscalls"), 6);
	/* The child's 64 pages fault in the child, which exits before the parent. */
	cr_expect_geq(jint(rec, "region.page_faults"), 64);
	cr_expect_null(jget(rec, "bench.iterations"), "no -n: totals only");
	json_object_put(rec);
}

Test(whole_region, no_markers_and_no_region_option_is_whole)
{
	const char *const args[] = {"--exec", WHOLECHECK, "fork", "8", NULL};
	struct json_object *rec = run("default.jsonl", 0, args);

	expect_whole(rec, "no --region, no marker sites");
	json_object_put(rec);
}

/* Only the child's pages differ between the runs: its faults are the region's. */
Test(whole_region, a_childs_page_faults_count)
{
	const char *const few[] = {"--region", "whole", "--exec", WHOLECHECK, "fork", "16", NULL};
	const char *const many[] = {"--region", "whole", "--exec", WHOLECHECK, "fork", "528", NULL};
	struct json_object *a = run("few.jsonl", 0, few), *b = run("many.jsonl", 0, many);
	int64_t fa = jint(a, "region.page_faults"), fb = jint(b, "region.page_faults");

	expect_whole(a, "fork 16");
	expect_whole(b, "fork 528");
	cr_expect_geq(fb - fa, 512, "512 more pages written by the child: %ld then %ld faults",
		      (long)fa, (long)fb);
	json_object_put(a);
	json_object_put(b);
}

/* The markers answer 0 (wholecheck fails otherwise) and their BEGIN's 7 iterations do not take. */
Test(whole_region, markers_are_no_ops_that_count_as_syscalls)
{
	const char *const args[] = {"--region", "whole", "--exec", WHOLECHECK, "markers", NULL};
	struct json_object *rec = run("markers.jsonl", 0, args);

	expect_whole(rec, "markers");
	/* QUERY, BEGIN, END, the write of the result line and exit_group at least. */
	cr_expect_geq(jint(rec, "region.syscalls"), 5);
	cr_expect_null(jget(rec, "bench.iterations"), "the BEGIN marker's 7 iterations were taken");
	json_object_put(rec);
}

Test(whole_region, a_signal_or_a_threads_exit_still_ends_it)
{
	const char *const sig[] = {"--region", "whole", "--exec", WHOLECHECK, "signal", NULL};
	const char *const thr[] = {"--region", "whole", "--exec", WHOLECHECK, "thread", NULL};
	struct json_object *rec = run("signal.jsonl", 128 + 9, sig);

	expect_whole(rec, "SIGKILL");
	json_object_put(rec);
	rec = run("thread.jsonl", 3, thr);
	expect_whole(rec, "exit from a second thread");
	cr_expect_geq(jint(rec, "region.syscalls"), 3, "clone, exit_group, ... at least");
	json_object_put(rec);
}

/* A benchmark with markers: marked by default and exactly as before; whole when asked. */
Test(whole_region, marked_bench_unchanged_and_whole_on_request)
{
	const char *const marked[] = {"gettid", "200", NULL};
	const char *const whole[] = {"--region", "whole", "gettid", "200", NULL};
	struct json_object *rec = run("marked.jsonl", 0, marked);

	cr_expect_str_eq(jstr(rec, "region.scope"), "marked");
	cr_expect_eq(jint(rec, "region.syscalls"), 200, "one syscall per iteration, no marker");
	cr_expect_eq(jint(rec, "region.exits"), 0, "VM exits inside the marked region");
	cr_expect_eq(jint(rec, "bench.iterations"), 200);
	json_object_put(rec);
	rec = run("whole.jsonl", 0, whole);
	expect_whole(rec, "gettid 200 --region whole");
	/* The loop, both markers (no-ops now) and the program's own start and exit. */
	cr_expect_geq(jint(rec, "region.syscalls"), 203);
	json_object_put(rec);
}

Test(whole_region, pmu_counts_the_whole_program)
{
	const char *const args[] = {"-e", "instructions:u", "--region", "whole", "--exec",
				    WHOLECHECK, "fork", "64", NULL};
	struct json_object *rec = run("pmu.jsonl", 0, args);

	expect_whole(rec, "-e instructions:u");
	if (!strcmp(jstr(rec, "host.pmu"), "none")) {
		json_object_put(rec);
		cr_skip_test("host.pmu is none (no vPMU here, e.g. the nested runner under TCG)");
	}
	cr_assert_str_eq(jstr(rec, "counters.instructions:u.status"), "counted");
	/* musl's start-up, a fork, a 64-page loop in the child, a printf: thousands at least. */
	cr_expect_gt(jint(rec, "counters.instructions:u.value"), 1000);
	json_object_put(rec);
}
