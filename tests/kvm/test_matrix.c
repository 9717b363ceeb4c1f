/*
 * `entrylab matrix` end to end on a tiny experiment (tests/kvm/matrix-tiny.ini:
 * 2 variants x 2 runs, plus one that needs PCID): the report, the records
 * with their experiment tags, the skip of a variant the host cannot run, and
 * `entrylab compare` printing the same table from the records.  In the
 * nested runner the whole matrix is one VM session.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define TINY EL_SOURCE_DIR "/tests/kvm/matrix-tiny.ini"

/* Lines of `path` as records, in order (caller puts the array). */
static struct json_object *records(const char *path)
{
	struct json_object *all = json_object_new_array();
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	cr_assert(f, "no records file %s", path);
	while (getline(&line, &cap, f) > 0) {
		struct json_object *o = json_tokener_parse(line);

		cr_assert(o, "a record line is not JSON: %s", line);
		json_object_array_add(all, o);
	}
	free(line);
	fclose(f);
	return all;
}

/* The report from its "host:" line on: what matrix and compare must agree on. */
static const char *table_part(const char *out)
{
	const char *t = strstr(out, "  host:");

	cr_assert(t, "no report in:\n%s", out);
	return t;
}

Test(matrix, tiny_experiment_end_to_end, .timeout = 600)
{
	const char *out = tmp_output("tiny.jsonl");
	struct json_object *all;
	struct el_proc p, c;
	int ok = 0, skipped = 0, runs[2][3] = {{0}};
	size_t n;

	entrylab(&p, "matrix", TINY, "-o", out, NULL);
	cr_assert_eq(p.status, 0, "matrix exit %d\n%s%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "entrylab matrix tiny: 2 run(s) per variant"), "%s", p.out);
	cr_expect(strstr(p.out, "ns/iter"), "%s", p.out);
	cr_expect(strstr(p.out, "syscalls/iter"), "%s", p.out);
	cr_expect(strstr(p.out, "cycles:k/iter"), "%s", p.out);
	cr_expect(strstr(p.out, "( +- "), "perf's relative stderr: %s", p.out);
	cr_expect(strstr(p.out, "baseline"), "%s", p.out);
	cr_expect(strstr(p.out, "  pti-on "), "%s", p.out);
	if (nested_mode())
		cr_expect(strstr(p.out, "timings are not meaningful"), "%s", p.out);

	all = records(out);
	n = json_object_array_length(all);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(all, i);
		const char *variant = jstr(r, "experiment.variant");
		struct json_object *run = jget(r, "experiment.run");

		cr_expect_str_eq(jstr(r, "experiment.name"), "tiny");
		cr_assert(variant);
		if (!strcmp(jstr(r, "status"), "unsupported")) {
			cr_expect_str_eq(variant, "pcid");
			cr_expect(json_object_get_boolean(jget(r, "experiment.skipped")));
			cr_expect(strstr(jstr(r, "detail"), "skipped: ") &&
				  strstr(jstr(r, "detail"), "pcid"), "%s", jstr(r, "detail"));
			skipped++;
			continue;
		}
		cr_expect_str_eq(jstr(r, "status"), "ok", "%s", jstr(r, "detail"));
		cr_expect_eq(json_object_get_int(jget(r, "bench.iterations")), 300);
		cr_assert(run);
		cr_expect_eq(json_object_get_int(jget(r, "experiment.runs")), 2);
		if (!strcmp(variant, "pti-off") || !strcmp(variant, "pti-on"))
			runs[!strcmp(variant, "pti-on")][json_object_get_int(run)]++;
		ok++;
	}
	cr_expect_eq(runs[0][1] + runs[0][2] + runs[1][1] + runs[1][2], 4,
		     "runs 1 and 2 of both variants");
	cr_expect(runs[0][1] == 1 && runs[0][2] == 1 && runs[1][1] == 1 && runs[1][2] == 1);
	/* pcid: skipped with its reason, or (on a host with PCID) run twice */
	cr_expect(skipped == 1 ? ok == 4 : ok == 6, "ok %d skipped %d", ok, skipped);
	if (skipped) {
		cr_expect(strstr(p.out, "<skipped>"), "%s", p.out);
		cr_expect(strstr(p.err, "pcid: skipped: "), "%s", p.err);
	}
	/* the syscalls column: one getpid per iteration */
	cr_expect(strstr(p.out, "1.00  ( +-  0.00% )"), "%s", p.out);

	entrylab(&c, "compare", "--metrics", "ns,syscalls,cycles:k", out, NULL);
	cr_assert_eq(c.status, 0, "%s", c.err);
	cr_expect_str_eq(table_part(c.out), table_part(p.out), "compare differs from the matrix");
	json_object_put(all);
	proc_free(&c);
	proc_free(&p);
}

Test(matrix, dry_run_and_bad_file_boot_nothing)
{
	char out[256], bad[256];
	struct el_proc p;
	FILE *f;

	/* tmp_output() returns one static buffer */
	snprintf(out, sizeof(out), "%s", tmp_output("dry.jsonl"));
	snprintf(bad, sizeof(bad), "%s", tmp_output("bad.ini"));

	entrylab(&p, "matrix", TINY, "--dry-run", "-r", "3", "-o", out, NULL);
	cr_expect_eq(p.status, 0, "%s", p.err);
	cr_expect(strstr(p.out, "x entrylab run -c host -a pti=off -e cycles:k -n 300 getpid"),
		  "%s", p.out);
	cr_expect(strstr(p.out, "requires pcid"), "%s", p.out);
	cr_expect_eq(record_count(out), 0);
	proc_free(&p);

	f = fopen(bad, "w");
	cr_assert(f);
	fputs("[experiment]\nname = bad\nbench = getpid\nappend = pti=maybe\n[variant a]\n", f);
	fclose(f);
	entrylab(&p, "matrix", bad, "-o", out, NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, ":4: append = pti=maybe"), "%s", p.err);
	cr_expect_eq(record_count(out), 0);
	proc_free(&p);

	entrylab(&p, "matrix", TINY, "--only", "pti-of", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "no variant 'pti-of'"), "%s", p.err);
	proc_free(&p);
}

/* --trace: every variant once under QEMU TCG, exact counts; no KVM and no nested runner. */
Test(matrix, tiny_experiment_traced, .timeout = 600)
{
	const char *out = tmp_output("tiny-trace.jsonl");
	struct json_object *all;
	double kernel[2] = {0};
	struct el_proc p;
	size_t n;

	entrylab(&p, "matrix", TINY, "--trace", "-r", "2", NULL);
	cr_expect_eq(p.status, 120, "-r is refused under --trace: %s", p.err);
	cr_expect(strstr(p.err, "deterministic"), "%s", p.err);
	proc_free(&p);

	entrylab(&p, "matrix", TINY, "--trace", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "matrix --trace exit %d\n%s%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "insns:k/iter"), "%s", p.out);
	cr_expect(strstr(p.out, "insns:u/iter"), "%s", p.out);
	cr_expect(!strstr(p.out, "ns/iter"), "no timings from a trace: %s", p.out);
	cr_expect(strstr(p.err, "no PMU events"), "%s", p.err);
	all = records(out);
	n = json_object_array_length(all);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(all, i);
		const char *variant = jstr(r, "experiment.variant");

		cr_assert(variant);
		if (!strcmp(jstr(r, "status"), "unsupported")) {
			cr_expect_str_eq(variant, "pcid", "%s", jstr(r, "detail"));
			cr_expect(json_object_get_boolean(jget(r, "experiment.skipped")));
			continue;
		}
		cr_expect_str_eq(jstr(r, "status"), "ok", "%s", jstr(r, "detail"));
		cr_expect_eq(json_object_get_int(jget(r, "experiment.runs")), 1);
		cr_assert(jget(r, "trace"), "variant %s has no trace object", variant);
		if (!strcmp(variant, "pti-off") || !strcmp(variant, "pti-on"))
			kernel[!strcmp(variant, "pti-on")] =
				json_object_get_double(jget(r, "trace.per_iter.kernel"));
	}
	cr_expect(n == 3, "one record per variant, got %zu", n);
	cr_expect(kernel[0] > 0 && kernel[1] > kernel[0],
		  "PTI adds kernel instructions per iteration: off %.2f on %.2f", kernel[0],
		  kernel[1]);
	json_object_put(all);
	proc_free(&p);
}

/* Lines of f (re-read from the start) that are progress lines "entrylab matrix: [k/M] ...". */
static int progress_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, "entrylab matrix: [", 18);
	fclose(f);
	return n;
}

/*
 * `entrylab matrix TINY EXTRA -o OUT` with signal sig once `lines` progress
 * lines are out: stderr in err_path, the exit status returned.
 */
static int matrix_interrupted(const char *out, const char *err_path, const char *extra,
			      const char *extra_arg, int lines, int sig)
{
	int st, fd = open(err_path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	pid_t pid;

	cr_assert_geq(fd, 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(fd, 2);
		execl(EL_ENTRYLAB, EL_ENTRYLAB, "matrix", TINY, "-o", out, extra, extra_arg,
		      (char *)NULL);
		_exit(127);
	}
	close(fd);
	for (int i = 0; i < 6000 && progress_lines(err_path) < lines; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			cr_assert_fail("the matrix ended before its run %d (exit %d)", lines,
				       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		usleep(50000);
	}
	cr_assert_geq(progress_lines(err_path), lines, "no run %d within 5 minutes", lines);
	kill(pid, sig);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The whole of a file, NUL-terminated (caller frees). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	cr_assert(f, "no %s", path);
	cr_assert_geq(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	return text;
}

/* How many records each (variant, run) has; skip records count as run 0. */
static void count_runs(const char *path, int counts[3][4], int *total)
{
	struct json_object *all = records(path);
	const char *names[] = {"pti-off", "pti-on", "pcid"};

	memset(counts, 0, sizeof(int[3][4]));
	*total = (int)json_object_array_length(all);
	for (int i = 0; i < *total; i++) {
		struct json_object *r = json_object_array_get_idx(all, i), *run;
		const char *v = jstr(r, "experiment.variant");

		run = jget(r, "experiment.run");
		cr_expect(jstr(r, "experiment.id"), "every matrix record has its matrix id");
		for (int k = 0; k < 3; k++)
			if (v && !strcmp(v, names[k]))
				counts[k][run ? json_object_get_int(run) : 0]++;
	}
	json_object_put(all);
}

Test(matrix, sigint_keeps_what_is_done_and_resume_completes_it, .timeout = 900)
{
	char out[256], err[256], dir[256], want[600];
	int counts[3][4], total, kept, planned, status;
	const char *line;
	struct el_proc p;
	char *text;

	snprintf(out, sizeof(out), "%s", tmp_output("int.jsonl"));
	snprintf(err, sizeof(err), "%s", tmp_output("int.err"));
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(out, '/') - out), out);

	status = matrix_interrupted(out, err, "-r", "3", 3, SIGINT);
	text = slurp(err);
	cr_log_info("interrupted matrix, stderr:\n%s", text);
	cr_expect_eq(status, 130, "exit %d after SIGINT\n%s", status, text);
	line = strstr(text, "interrupted: ");
	cr_assert(line, "no 'interrupted:' line:\n%s", text);
	cr_assert_eq(sscanf(line, "interrupted: %d of %d runs kept in ", &kept, &planned), 2, "%s",
		     line);
	snprintf(want, sizeof(want), "runs kept in %s; entrylab matrix --resume %s continues\n",
		 dir, dir);
	cr_expect(strstr(line, want), "%s", line);
	count_runs(out, counts, &total);
	/* The third run's record was on disk before its line; a fourth may have beaten SIGINT. */
	cr_expect(kept >= 3 && kept < planned, "kept %d of %d", kept, planned);
	cr_expect_eq(counts[0][1] + counts[0][2] + counts[0][3] + counts[1][1] + counts[1][2] +
			     counts[1][3] + counts[2][1] + counts[2][2] + counts[2][3], kept,
		     "the records on disk are the runs said to be kept");
	cr_expect(access(strcat(dir, "/plan.json"), F_OK) == 0, "no plan.json beside the records");
	*strrchr(dir, '/') = '\0';
	cr_expect(access(strcat(dir, "/summary.csv"), F_OK) == 0, "no summary.csv for the kept runs");
	*strrchr(dir, '/') = '\0';
	free(text);

	entrylab(&p, "matrix", "--resume", dir, "-r", "2", NULL);
	cr_expect_eq(p.status, 120, "--resume refuses options that shape the plan");
	cr_expect(strstr(p.err, "takes only"), "%s", p.err);
	proc_free(&p);

	entrylab(&p, "matrix", "--resume", dir, NULL);
	cr_assert_eq(p.status, 0, "resume exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.out, "3 run(s) per variant"), "%s", p.out);
	cr_expect(strstr(p.err, "results in "), "%s", p.err);
	cr_expect(!strstr(p.err, "interrupted: "), "%s", p.err);
	count_runs(out, counts, &total);
	for (int v = 0; v < 2; v++)
		for (int run = 1; run <= 3; run++)
			cr_expect_eq(counts[v][run], 1, "variant %d run %d has %d records", v, run,
				     counts[v][run]);
	/* pcid: one skip record, or (a host with PCID) its three runs once each */
	cr_expect(counts[2][0] == 1 ? total == 7
				    : counts[2][1] == 1 && counts[2][2] == 1 && counts[2][3] == 1,
		  "pcid: skip %d, runs %d %d %d, total %d", counts[2][0], counts[2][1], counts[2][2],
		  counts[2][3], total);
	proc_free(&p);

	entrylab(&p, "matrix", "--resume", dir, NULL);
	cr_expect_eq(p.status, 0, "%s", p.err);
	cr_expect(!strstr(p.err, "] pti-"), "a complete matrix runs nothing again: %s", p.err);
	count_runs(out, counts, &total);
	cr_expect(total == 7 || total == 9, "still each run once: %d records", total);
	proc_free(&p);
}

/*
 * The same with --trace, which runs here whatever the host (QEMU TCG in a
 * child per variant, never nested): SIGTERM abandons the trace in flight,
 * exit 143; --resume traces the rest.
 */
Test(matrix, sigterm_stops_a_traced_matrix_and_resume_completes_it, .timeout = 600)
{
	char out[256], err[256], dir[256];
	int counts[3][4], total, kept, planned, status;
	const char *line;
	struct el_proc p;
	char *text;

	snprintf(out, sizeof(out), "%s", tmp_output("trace-int.jsonl"));
	snprintf(err, sizeof(err), "%s", tmp_output("trace-int.err"));
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(out, '/') - out), out);

	status = matrix_interrupted(out, err, "--trace", NULL, 1, SIGTERM);
	text = slurp(err);
	cr_log_info("interrupted traced matrix, stderr:\n%s", text);
	cr_expect_eq(status, 143, "exit %d after SIGTERM\n%s", status, text);
	line = strstr(text, "interrupted: ");
	cr_assert(line, "no 'interrupted:' line:\n%s", text);
	cr_assert_eq(sscanf(line, "interrupted: %d of %d runs kept in ", &kept, &planned), 2, "%s",
		     line);
	count_runs(out, counts, &total);
	cr_expect(kept >= 1 && kept < 3 && total == kept, "kept %d of %d, %d records", kept,
		  planned, total);
	cr_expect_eq(counts[0][1], 1, "pti-off's trace is kept");
	free(text);

	entrylab(&p, "matrix", "--resume", dir, NULL);
	cr_assert_eq(p.status, 0, "resume exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.out, "insns:k/iter"), "the traced report: %s", p.out);
	count_runs(out, counts, &total);
	cr_expect(counts[0][1] == 1 && counts[1][1] == 1, "each trace once: %d %d", counts[0][1],
		  counts[1][1]);
	cr_expect(counts[2][0] + counts[2][1] == 1, "pcid skipped or traced, once");
	cr_expect_eq(total, 3);
	proc_free(&p);
}

/*
 * file = lines: the experiment's in every variant, a variant's added; HOST
 * relative to the experiment file's directory; each run's record carries
 * them (request.files, with their bytes), and --dry-run shows them.
 */
Test(matrix, file_lines_reach_every_run_and_record, .timeout = 600)
{
	char ini[256], data[256], out[256], want[600];
	struct json_object *all;
	struct el_proc p;
	size_t n;
	FILE *f;

	snprintf(ini, sizeof(ini), "%s", tmp_output("files.ini"));
	snprintf(data, sizeof(data), "%s", tmp_output("files-data.txt"));
	snprintf(out, sizeof(out), "%s", tmp_output("files.jsonl"));
	f = fopen(data, "w");
	cr_assert(f);
	fputs("four", f);
	fclose(f);
	f = fopen(ini, "w");
	cr_assert(f);
	fputs("[experiment]\nname = files\nbench = getpid\niterations = 50\nrepeat = 1\n"
	      "file = files-data.txt\n[variant one]\n[variant two]\n"
	      "file = files-data.txt=/etc/d\n", f);
	fclose(f);

	entrylab(&p, "matrix", ini, "--dry-run", "-o", out, NULL);
	cr_expect_eq(p.status, 0, "%s", p.err);
	snprintf(want, sizeof(want), "--file %s=/files-data.txt --file %s=/etc/d -n 50 getpid",
		 data, data);
	cr_expect(strstr(p.out, want), "no '%s' in:\n%s", want, p.out);
	proc_free(&p);

	entrylab(&p, "matrix", ini, "-o", out, NULL);
	cr_assert_eq(p.status, 0, "matrix exit %d\n%s%s", p.status, p.out, p.err);
	all = records(out);
	n = json_object_array_length(all);
	cr_assert_eq(n, 2, "one run per variant, got %zu", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(all, i);
		struct json_object *files = jget(r, "request.files");
		bool two = !strcmp(jstr(r, "experiment.variant"), "two");

		cr_expect_str_eq(jstr(r, "status"), "ok", "%s", jstr(r, "detail"));
		cr_assert(files && json_object_get_type(files) == json_type_array);
		cr_assert_eq(json_object_array_length(files), two ? 2u : 1u);
		for (size_t k = 0; k < json_object_array_length(files); k++) {
			struct json_object *fo = json_object_array_get_idx(files, k);

			cr_expect_str_eq(jstr(fo, "host"), data);
			cr_expect_str_eq(jstr(fo, "guest"), k ? "/etc/d" : "/files-data.txt");
			cr_expect_eq(json_object_get_int(jget(fo, "bytes")), 4);
		}
	}
	json_object_put(all);
	proc_free(&p);
}
