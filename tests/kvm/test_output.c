/*
 * A records path that cannot take records is a usage error (120) before
 * anything boots, for `run`, `trace` and `matrix`: a missing directory, a
 * directory, a read-only file, /proc/version.  "Before anything boots" is
 * checked by time (well under one boot, ~5 s nested) and by the absence of
 * the nested runner's notice and of any record file.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"
#include "harness.h"

#define TINY EL_SOURCE_DIR "/tests/kvm/matrix-tiny.ini"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* `entrylab CMD -o PATH ARG` must be refused at once, naming the path. */
static void refused(const char *cmd, const char *path, const char *arg, const char *why)
{
	struct el_proc p;
	double t = now_s();

	if (!strcmp(cmd, "matrix"))
		entrylab(&p, cmd, arg, "-o", path, NULL);
	else
		entrylab(&p, cmd, "-o", path, arg, NULL);
	t = now_s() - t;
	cr_expect_eq(p.status, 120, "%s -o %s: exit %d\n%s", cmd, path, p.status, p.err);
	cr_expect(strstr(p.err, path) && strstr(p.err, why), "%s -o %s: %s", cmd, path, p.err);
	cr_expect(!strstr(p.err, "QEMU TCG VM"), "%s -o %s started the nested runner", cmd, path);
	cr_expect(t < 2.0, "%s -o %s took %.1f s: something booted", cmd, path, t);
	proc_free(&p);
}

Test(output, a_bad_path_is_a_usage_error_before_boot, .timeout = 120)
{
	const char *cmds[][2] = {{"run", "getpid"}, {"trace", "getpid"}, {"matrix", TINY}};
	char ro[256], dir[256];
	int fd;

	snprintf(ro, sizeof(ro), "%s", tmp_output("read-only.jsonl"));
	fd = open(ro, O_CREAT | O_WRONLY, 0444);
	cr_assert_geq(fd, 0);
	close(fd);
	snprintf(dir, sizeof(dir), "%s", tmp_output("a-dir"));
	cr_assert_eq(mkdir(dir, 0755), 0);
	for (size_t i = 0; i < EL_ARRAY_SIZE(cmds); i++) {
		refused(cmds[i][0], "/nonexistent/x.jsonl", cmds[i][1], "does not exist");
		refused(cmds[i][0], dir, cmds[i][1], "is a directory");
		refused(cmds[i][0], ro, cmds[i][1], "read-only");
		refused(cmds[i][0], "/proc/version", cmds[i][1], "procfs");
	}
	cr_expect_eq(record_count(ro), 0);
}

/*
 * A write that fails after the boot (here: the file size limit, as a full
 * disk would) exits 125 for run, trace and matrix, names no record file,
 * leaves no torn line, and a matrix stops with no progress line for the
 * lost record.  The output file
 * is made sparse just below the limit, so only the record's write fails.
 */
static void fill_to_limit(const char *path, off_t limit)
{
	struct rlimit rl = {.rlim_cur = (rlim_t)limit, .rlim_max = (rlim_t)limit};
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, limit - 64), 0);
	close(fd);
	/* Inherited by entrylab: EFBIG instead of a signal, for every write past the limit. */
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

Test(output, a_failed_write_is_an_error_and_claims_nothing, .timeout = 300)
{
	const off_t limit = 256 << 20;
	char run_out[256], trace_out[256], matrix_out[256];
	struct el_proc p;

	snprintf(run_out, sizeof(run_out), "%s", tmp_output("full-run.jsonl"));
	snprintf(trace_out, sizeof(trace_out), "%s", tmp_output("full-trace.jsonl"));
	snprintf(matrix_out, sizeof(matrix_out), "%s", tmp_output("full-matrix.jsonl"));
	fill_to_limit(matrix_out, limit);
	fill_to_limit(trace_out, limit);
	fill_to_limit(run_out, limit);

	entrylab(&p, "run", "-o", run_out, "getpid", NULL);
	cr_expect_eq(p.status, 125, "run: exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.err, "writing records to") && strstr(p.err, run_out), "%s", p.err);
	cr_expect(!strstr(p.out, run_out) && !strstr(p.err, "records appended"),
		  "no claim the record was kept:\n%s%s", p.out, p.err);
	cr_expect_eq(file_size(run_out), limit - 64, "no partial line left behind");
	proc_free(&p);

	entrylab(&p, "trace", "-o", trace_out, "getpid", "100", NULL);
	cr_expect_eq(p.status, 125, "trace: exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.err, "writing records to") && strstr(p.err, trace_out), "%s", p.err);
	cr_expect(!strstr(p.out, trace_out), "no claim the record was kept:\n%s", p.out);
	cr_expect_eq(file_size(trace_out), limit - 64, "no partial line left behind");
	proc_free(&p);

	entrylab(&p, "matrix", TINY, "-r", "1", "-o", matrix_out, NULL);
	cr_expect_eq(p.status, 125, "matrix: exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.err, "writing records to"), "%s", p.err);
	cr_expect(!strstr(p.err, "run 1/1: ok"), "a progress line for a lost record:\n%s", p.err);
	cr_expect_eq(file_size(matrix_out), limit - 64, "no partial line left behind");
	proc_free(&p);
}
