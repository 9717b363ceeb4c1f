/*
 * record_out (record/record_out.c): a records path is judged before any
 * boot (missing directory, a directory, a device, procfs, a read-only
 * file are refused with the path and a fix), records are whole lines, a
 * failed write is remembered, a torn one rolled back (io_append_atomic),
 * and an empty file we created is removed.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_io.h"
#include "record_out.h"
#include "status.h"

static char dir[] = "/tmp/test_record_out.XXXXXX";

static void setup(void)
{
	cr_assert(mkdtemp(dir));
}

static const char *in_dir(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* record_out_check's verdict: NULL when accepted, else the message. */
static const char *verdict(const char *path)
{
	static char err[4800];

	return record_out_check(path, err, sizeof(err)) ? err : NULL;
}

TestSuite(record_out, .init = setup);

Test(record_out, refuses_paths_that_cannot_keep_records)
{
	const char *why;
	int fd;

	why = verdict("/nonexistent-dir/x.jsonl");
	cr_assert(why);
	cr_expect(strstr(why, "/nonexistent-dir does not exist") && strstr(why, "mkdir -p"), "%s",
		  why);
	why = verdict(dir);
	cr_assert(why);
	cr_expect(strstr(why, "is a directory") && strstr(why, "runs.jsonl"), "%s", why);
	why = verdict("/tmp/");
	cr_expect(why && strstr(why, "names a directory"), "%s", why);
	why = verdict("/proc/version");
	cr_expect(why && strstr(why, "procfs"), "%s", why);
	why = verdict("/dev/null");
	cr_expect(why && strstr(why, "not a regular file"), "%s", why);
	why = verdict("/proc/self/new.jsonl");
	cr_expect(why && strstr(why, "procfs"), "%s", why);
	why = verdict("");
	cr_expect(why && strstr(why, "empty"), "%s", why);

	fd = open(in_dir("ro.jsonl"), O_CREAT | O_WRONLY, 0444);
	cr_assert_geq(fd, 0);
	close(fd);
	why = verdict(in_dir("ro.jsonl"));
	cr_expect(why && strstr(why, "read-only (mode 0444)") && strstr(why, "chmod u+w"), "%s",
		  why);
}

Test(record_out, accepts_new_and_existing_files)
{
	int fd;

	cr_expect_null(verdict(in_dir("new.jsonl")));
	fd = open(in_dir("old.jsonl"), O_CREAT | O_WRONLY, 0644);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_expect_null(verdict(in_dir("old.jsonl")));
}

Test(record_out, open_is_a_usage_error_for_a_bad_path)
{
	struct record_out o;

	cr_expect_eq(record_out_open(&o, "test", "/nonexistent-dir/x.jsonl"), EL_EXIT_USAGE);
	cr_expect_eq(o.fd, -1);
	cr_expect_eq(record_out_open(&o, "test", "/proc/version"), EL_EXIT_USAGE);
	cr_expect_eq(record_out_close(&o), 0, "nothing was open");
}

Test(record_out, appends_whole_lines_and_counts_them)
{
	struct record_out o;
	struct json_object *rec = json_tokener_parse("{\"a\":1,\"b\":\"x/y\"}");
	char buf[128] = "";
	FILE *f;

	cr_assert_eq(record_out_open(&o, "test", in_dir("r.jsonl")), 0);
	cr_expect(o.created);
	cr_expect_eq(record_out_append(&o, rec), 0);
	cr_expect_eq(record_out_append(&o, rec), 0);
	cr_expect_eq(o.written, 2);
	cr_expect_eq(record_out_close(&o), 0);
	f = fopen(in_dir("r.jsonl"), "r");
	cr_assert(f);
	cr_expect_eq(fread(buf, 1, sizeof(buf) - 1, f), 36);
	fclose(f);
	cr_expect_str_eq(buf, "{\"a\":1,\"b\":\"x/y\"}\n{\"a\":1,\"b\":\"x/y\"}\n");
	json_object_put(rec);
}

Test(record_out, a_failed_write_is_remembered_and_the_empty_file_removed)
{
	struct record_out o;
	struct json_object *rec = json_tokener_parse("{\"a\":1}");
	int ro;

	cr_assert_eq(record_out_open(&o, "test", in_dir("f.jsonl")), 0);
	ro = open(in_dir("f.jsonl"), O_RDONLY);
	cr_assert_geq(ro, 0);
	dup2(ro, o.fd); /* writes now fail, as on a full disk */
	close(ro);
	cr_expect_eq(record_out_append(&o, rec), -1);
	cr_expect(o.failed);
	cr_expect_eq(o.written, 0);
	cr_expect_eq(record_out_append(&o, rec), -1, "no write after a failure");
	cr_expect_eq(record_out_close(&o), -1);
	cr_expect_neq(access(in_dir("f.jsonl"), F_OK), 0, "the empty file we made is gone");
	json_object_put(rec);
}

/* A torn write (here the file size limit cuts it) is rolled back and says why. */
Test(record_out, a_torn_line_is_rolled_back)
{
	struct rlimit rl = {.rlim_cur = 40, .rlim_max = 40};
	const char line[] = "{\"a\":\"0123456789012345678901234567890123456789\"}\n";
	char err[600];
	struct stat st;
	int fd;

	fd = open(in_dir("torn.jsonl"), O_CREAT | O_WRONLY | O_APPEND, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(io_append_atomic(fd, "{}\n", 3, err, sizeof(err)), 0, "%s", err);
	signal(SIGXFSZ, SIG_IGN);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	cr_expect_eq(io_append_atomic(fd, line, sizeof(line) - 1, err, sizeof(err)), -1);
	cr_expect(strstr(err, "File too large"), "the reason of the short write: %s", err);
	cr_assert_eq(fstat(fd, &st), 0);
	cr_expect_eq(st.st_size, 3, "the partial line is gone");
	close(fd);
}
