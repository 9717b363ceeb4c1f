/*
 * A records path that cannot take records is a usage error (120) before
 * anything boots, for `run`, `trace` and `matrix`: a missing directory, a
 * directory, a read-only file, /proc/version.  "Before anything boots" is
 * checked by time (well under one boot, ~5 s nested) and by the absence of
 * the nested runner's notice and of any record file.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		refused(cmds[i][0], "/nonexistent/x.jsonl", cmds[i][1], "does not exist");
		refused(cmds[i][0], dir, cmds[i][1], "is a directory");
		refused(cmds[i][0], ro, cmds[i][1], "read-only");
		refused(cmds[i][0], "/proc/version", cmds[i][1], "procfs");
	}
	cr_expect_eq(record_count(ro), 0);
}
