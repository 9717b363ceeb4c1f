/*
 * What --resume relies on (harness/matrix/matrix_records.c): a run is done
 * when this matrix's id has a record for (variant, run) with any status
 * but "interrupted"; other matrices' records in the same file do not
 * count; the nested VM's --done-runs list round-trips; the report counts
 * each run once.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix.h"
#include "matrix_run.h"

#define TINY EL_SOURCE_DIR "/tests/kvm/matrix-tiny.ini"

/* tiny.ini's three variants, two runs each, id "ID1"; no boots (nothing is planned here). */
static struct matrix *tiny(void)
{
	struct matrix *m = calloc(1, sizeof(*m));

	cr_assert(m);
	cr_assert_eq(experiment_load(TINY, &m->exp, stderr), 0);
	m->repeat = 2;
	m->nv = m->exp.nvariants;
	for (unsigned i = 0; i < m->nv; i++)
		m->v[i].index = i;
	snprintf(m->id, sizeof(m->id), "ID1");
	return m;
}

static void tiny_free(struct matrix *m)
{
	free(m->done);
	experiment_free(&m->exp);
	free(m);
}

static const char *records_file(void)
{
	static char path[] = "/tmp/test_matrix_run.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	cr_assert(f);
	/* ours: pti-off 1 ok, pti-off 2 crashed (a result), pti-on 1 interrupted (not one) */
	fputs("{\"status\":\"ok\",\"experiment\":{\"name\":\"tiny\",\"id\":\"ID1\","
	      "\"variant\":\"pti-off\",\"run\":1}}\n", f);
	fputs("{\"status\":\"guest-crash\",\"experiment\":{\"name\":\"tiny\",\"id\":\"ID1\","
	      "\"variant\":\"pti-off\",\"run\":2}}\n", f);
	fputs("{\"status\":\"interrupted\",\"experiment\":{\"name\":\"tiny\",\"id\":\"ID1\","
	      "\"variant\":\"pti-on\",\"run\":1}}\n", f);
	/* the skip record of pcid */
	fputs("{\"status\":\"unsupported\",\"detail\":\"skipped: no pcid\",\"experiment\":{"
	      "\"name\":\"tiny\",\"id\":\"ID1\",\"variant\":\"pcid\",\"run\":null,"
	      "\"skipped\":true}}\n", f);
	/* another matrix's, and a line that is not a record */
	fputs("{\"status\":\"ok\",\"experiment\":{\"name\":\"tiny\",\"id\":\"ID2\","
	      "\"variant\":\"pti-on\",\"run\":2}}\nnot json\n", f);
	/* a duplicate of ours */
	fputs("{\"status\":\"ok\",\"experiment\":{\"name\":\"tiny\",\"id\":\"ID1\","
	      "\"variant\":\"pti-off\",\"run\":1}}\n", f);
	fclose(f);
	return path;
}

Test(matrix_run, done_runs_are_this_matrix_records_but_not_interrupted_ones)
{
	struct matrix *m = tiny();
	const char *path = records_file();
	char *list;

	cr_assert_eq(matrix_done_load(m, path), 0);
	cr_expect(matrix_done(m, 0, 1));
	cr_expect(matrix_done(m, 0, 2), "a crash is a result");
	cr_expect(!matrix_done(m, 1, 1), "an interrupted run is not");
	cr_expect(!matrix_done(m, 1, 2), "another matrix's record is not ours");
	cr_expect(matrix_done(m, 2, 0), "the skip record");
	cr_expect(!matrix_done(m, 2, 1));
	list = matrix_done_list(m);
	cr_expect_str_eq(list, "0.1,0.2,2.0");
	cr_assert_eq(matrix_done_parse(m, "1.2"), 0);
	cr_expect(matrix_done(m, 1, 2) && !matrix_done(m, 0, 1));
	cr_assert_eq(matrix_done_parse(m, list), 0);
	cr_expect(matrix_done(m, 0, 1) && matrix_done(m, 0, 2) && matrix_done(m, 2, 0));
	cr_expect(!matrix_done(m, 1, 2));
	cr_expect_eq(matrix_done_parse(m, "0.9"), -1, "a run beyond the plan");
	cr_expect_eq(matrix_done_parse(m, "x"), -1);
	cr_assert_eq(matrix_done_parse(m, ""), 0);
	cr_expect(!matrix_done(m, 0, 1));
	free(list);
	unlink(path);
	tiny_free(m);
}

Test(matrix_run, a_missing_records_file_has_nothing_done)
{
	struct matrix *m = tiny();

	cr_assert_eq(matrix_done_load(m, "/nonexistent-dir/runs.jsonl"), 0);
	cr_expect(!matrix_done(m, 0, 1));
	tiny_free(m);
}

Test(matrix_run, the_report_counts_each_run_once)
{
	struct matrix *m = tiny();
	const char *path = records_file();
	unsigned kept, planned;
	struct report r;

	report_init(&r);
	cr_assert_eq(matrix_report_load(m, path, &r, &kept, &planned), 0);
	cr_expect_eq(kept, 2, "pti-off runs 1 and 2 (the duplicate once, the interrupted not)");
	cr_expect_eq(planned, 4, "pcid was skipped: 2 variants x 2 runs");
	/* (the fake "ok" record has no measured region: the report files it as failed) */
	cr_expect_eq(r.g[0].ok + r.g[0].failed, 2, "each run of pti-off once");
	cr_expect_eq(r.g[1].ok + r.g[1].failed, 0);
	cr_expect_eq(r.g[2].skipped, 1);
	report_free(&r);
	unlink(path);
	tiny_free(m);
}

/* plan.json: saved, read back, and refused when the plan or the file no longer match. */
Test(matrix_run, plan_round_trip_and_mismatches)
{
	char dir[] = "/tmp/test_matrix_plan.XXXXXX", path[256];
	char *argv[] = {"matrix", TINY, "-r", "2", "--args", "a 'b' ;c", NULL};
	struct matrix *m = tiny();
	struct matrix_saved s;
	struct matrix_dir d;
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(m->path, sizeof(m->path), "%s", TINY);
	m->o.experiment_arg = 1;
	memset(&d, 0, sizeof(d));
	snprintf(d.dir, sizeof(d.dir), "%s", dir);
	snprintf(d.runs, sizeof(d.runs), "%s/runs.jsonl", dir);
	cr_assert_eq(matrix_plan_save(m, &d, "entrylab matrix tiny -r 2", 6, argv, NULL), 0);
	cr_assert_eq(matrix_plan_read(dir, &s), 0);
	cr_expect_str_eq(s.id, "ID1");
	cr_expect_str_eq(s.experiment, "tiny");
	cr_expect_str_eq(s.runs_file, "runs.jsonl");
	cr_expect_str_eq(s.command, "entrylab matrix tiny -r 2");
	cr_assert_eq(s.argc, 6);
	cr_expect_str_eq(s.argv[0], "matrix");
	cr_expect_eq(s.argv[1][0], '/', "the experiment as an absolute path: %s", s.argv[1]);
	cr_expect_str_eq(s.argv[5], "a 'b' ;c", "words kept exactly");
	cr_expect_null(s.argv[6]);
	cr_expect_eq(matrix_plan_matches(m, &s, dir), 0);
	m->repeat = 3;
	cr_expect_eq(matrix_plan_matches(m, &s, dir), 120, "another list of runs");
	m->repeat = 2;
	s.hash ^= 1;
	cr_expect_eq(matrix_plan_matches(m, &s, dir), 120, "the file changed");
	matrix_saved_free(&s);

	snprintf(path, sizeof(path), "%s/plan.json", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fputs("{\"schema\":\"something/else\"}", f);
	fclose(f);
	cr_expect_eq(matrix_plan_read(dir, &s), 120);
	matrix_saved_free(&s);
	unlink(path);
	cr_expect_eq(matrix_plan_read(dir, &s), 120, "no plan.json");
	matrix_saved_free(&s);
	rmdir(dir);
	tiny_free(m);
}

Test(matrix_run, command_is_one_shell_line)
{
	char *argv[] = {"matrix", "pti-global", "--args", "1G 100", "--only", "it's", NULL};
	char *cmd = matrix_command(6, argv);

	cr_expect_str_eq(cmd, "entrylab matrix pti-global --args '1G 100' --only 'it'\\''s'");
	free(cmd);
}
