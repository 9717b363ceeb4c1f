/*
 * A program that never marks a region is measured whole, a
 * marked one by its markers, `--region whole` measures a marked one whole,
 * and one whose markers never run has no figure; on our kernel and on
 * Linux (`--guest linux`, /init's region=).  The programs are our own,
 * written as a user's (guest/examples/: one source, unmarked and marked
 * builds), and markercheck (marker.h from two C99 translation units).
 * Seven Linux boots and five of ours.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define EXAMPLES    EL_BINARY_DIR "/guest/examples/"
#define MARKERCHECK EL_BINARY_DIR "/guest/markercheck"
#define KERNEL      EL_BINARY_DIR "/nested/kernel"

TestSuite(region_scope, .timeout = 900);

/*
 * One `entrylab run --guest GUEST [--append APPEND] [--region REGION]
 * --exec FILE [ARG]` that exits 0 with one record; the record.
 */
static struct json_object *run_append(const char *guest, const char *append, const char *region,
				      const char *file, const char *arg, const char *out)
{
	const char *a[12] = {NULL};
	struct json_object *rec;
	struct el_proc p;
	int n = 0;

	if (!strcmp(guest, "linux") && access(KERNEL, R_OK))
		cr_skip_test("no Linux kernel at %s (a build with -DENTRYLAB_NESTED=OFF)", KERNEL);
	a[n++] = "--guest";
	a[n++] = guest;
	if (append) {
		a[n++] = "--append";
		a[n++] = append;
	}
	if (region) {
		a[n++] = "--region";
		a[n++] = region;
	}
	a[n++] = "-o";
	a[n++] = out;
	a[n++] = "--exec";
	a[n++] = file;
	a[n] = arg;
	/* entrylab() stops at the first NULL: the unused slots. */
	entrylab(&p, "run", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10],
		 NULL);
	cr_assert_eq(p.status, 0, "run --guest %s %s exited %d: %s", guest, file, p.status, p.err);
	cr_assert_eq(record_count(out), 1);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_expect_str_eq(jstr(rec, "status"), "ok", "%s", jstr(rec, "detail"));
	proc_free(&p);
	return rec;
}

static struct json_object *run_record(const char *guest, const char *region, const char *file,
				      const char *arg, const char *out)
{
	return run_append(guest, NULL, region, file, arg, out);
}

static int64_t tsc_ticks(struct json_object *rec)
{
	struct json_object *t = jget(rec, "region.tsc_ticks");

	cr_assert(t && json_object_is_type(t, json_type_int), "region.tsc_ticks is %s",
		  t ? json_object_to_json_string(t) : "absent");
	return json_object_get_int64(t);
}

/* Measured, in this scope ("marked" or "whole-program"), for a time. */
static void measured(struct json_object *rec, const char *scope)
{
	cr_expect_str_eq(jstr(rec, "region.scope"), scope);
	cr_expect_gt(tsc_ticks(rec), 0);
	cr_expect_null(jget(rec, "region.not_measured"), "%s", jstr(rec, "region.not_measured"));
	json_object_put(rec);
}

static void unmarked_is_whole(const char *guest)
{
	measured(run_record(guest, NULL, EXAMPLES "touch-pages", NULL, tmp_output("u.jsonl")),
		 "whole-program");
}

static void marked_or_whole(const char *guest)
{
	const char *prog = EXAMPLES "touch-pages-marked";

	measured(run_record(guest, NULL, prog, NULL, tmp_output("m.jsonl")), "marked");
	measured(run_record(guest, "whole", prog, NULL, tmp_output("w.jsonl")), "whole-program");
}

/* markercheck: begun in one unit, ended in the other, under one state (else exit 1). */
static void two_units(const char *guest)
{
	measured(run_record(guest, NULL, MARKERCHECK, "500", tmp_output("two.jsonl")), "marked");
}

/* Marked, and its markers never run: no figure is a number, and the record says why. */
static void markers_never_run(const char *guest)
{
	struct json_object *rec =
		run_record(guest, NULL, EXAMPLES "touch-pages-if", NULL, tmp_output("never.jsonl"));
	struct json_object *region = jget(rec, "region"), *t = NULL;

	/* json-c holds a JSON null as a NULL object: present, and NULL. */
	cr_assert(region, "no region object");
	cr_expect(json_object_object_get_ex(region, "tsc_ticks", &t) && !t,
		  "region.tsc_ticks is %s", t ? json_object_to_json_string(t) : "absent");
	cr_expect(jstr(rec, "region.not_measured") &&
			  strstr(jstr(rec, "region.not_measured"), "never ran"),
		  "region.not_measured: %s", jstr(rec, "region.not_measured"));
	json_object_put(rec);
}

Test(region_scope, entrylab_unmarked_is_whole)
{
	unmarked_is_whole("entrylab");
}

Test(region_scope, entrylab_marked_or_whole)
{
	marked_or_whole("entrylab");
}

Test(region_scope, entrylab_marker_h_two_units)
{
	two_units("entrylab");
}

Test(region_scope, entrylab_markers_never_run)
{
	markers_never_run("entrylab");
}

Test(region_scope, linux_unmarked_is_whole)
{
	unmarked_is_whole("linux");
}

Test(region_scope, linux_marked_or_whole)
{
	marked_or_whole("linux");
}

Test(region_scope, linux_marker_h_two_units)
{
	two_units("linux");
}

Test(region_scope, linux_markers_never_run)
{
	markers_never_run("linux");
}

static int64_t page_faults(struct json_object *rec)
{
	struct json_object *t = jget(rec, "region.page_faults");

	cr_assert(t && json_object_is_type(t, json_type_int), "region.page_faults is %s",
		  t ? json_object_to_json_string(t) : "absent or null");
	return json_object_get_int64(t);
}

/*
 * Linux counts a whole program's page faults (perf's software event): 64K
 * more per round, 4 rounds, is exactly 64 faults more; the rest (start-up,
 * the execve's tail, exit) is the same in both runs once the address
 * layout is (norandmaps: a randomised stack moves that rest by one).
 */
Test(region_scope, linux_whole_page_faults_exact)
{
	struct json_object *a = run_append("linux", "norandmaps", NULL, EXAMPLES "touch-pages",
					   "64K", tmp_output("pf64.jsonl"));
	struct json_object *b = run_append("linux", "norandmaps", NULL, EXAMPLES "touch-pages",
					   "128K", tmp_output("pf128.jsonl"));

	cr_expect_gt(page_faults(a), 64, "the program touched 64 pages");
	cr_expect_eq(page_faults(b) - page_faults(a), 64, "%lld and %lld faults",
		     (long long)page_faults(b), (long long)page_faults(a));
	json_object_put(a);
	json_object_put(b);
}
