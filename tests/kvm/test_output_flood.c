/*
 * A guest that floods its console and stdout with NUL, ESC sequences and
 * ill-formed UTF-8 (tests/guest/flood.c): the record is valid JSON text
 * (valid UTF-8, nothing raw), says what it replaced and how much it kept,
 * -v shows the console with controls escaped, and the VMM reports its peak
 * resident memory.  Floods beyond the cap are too slow under the nested
 * runner (about 2 KB/s of COM1): there the cap is tests/unit/test_text_keep.c's,
 * end to end it is trace's (QEMU TCG, fast COM1).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "host_io.h"
#include "output_cap.h"
#include "text_sanitize.h"

#define FLOOD EL_BINARY_DIR "/guest/flood"
#define LINES 64 /* of 64 bytes each; 10 substitutions per line (tests/guest/flood.c) */

TestSuite(output_flood, .timeout = 600);

/* The whole records file is valid UTF-8 with no control byte but the newlines. */
static void expect_clean_file(const char *path)
{
	size_t len = 0, n = 0;
	uint64_t replaced = 0;
	char err[256], *raw = io_read_file(path, 64u << 20, &len, err, sizeof(err)), *clean;

	cr_assert(raw && len, "no records in %s: %s", path, raw ? "empty" : err);
	clean = text_sanitize_utf8(raw, len, &n, &replaced);
	cr_expect_eq(replaced, 0, "%llu ill-formed or control bytes in the record",
		     (unsigned long long)replaced);
	cr_expect(n == len && !memcmp(raw, clean, len), "the record is not plain valid UTF-8");
	for (size_t i = 0; i < len; i++)
		cr_assert(raw[i] == '\n' || (unsigned char)raw[i] >= 0x20,
			  "raw control byte 0x%02x at offset %zu", raw[i], i);
	free(clean);
	free(raw);
}

Test(output_flood, com1_flood_is_valid_json_and_escaped_on_the_terminal)
{
	const char *out = tmp_output("com1.jsonl");
	struct json_object *rec;
	struct el_proc p;
	char size[16];

	snprintf(size, sizeof(size), "%d", LINES * 64);
	entrylab(&p, "run", "-v", "-o", out, "--exec", FLOOD, "com1", size, NULL);
	cr_expect_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	expect_clean_file(out);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect_geq(json_object_get_int64(jget(rec, "console_info.bytes")), LINES * 64);
	cr_expect_eq(json_object_get_int64(jget(rec, "console_info.dropped")), 0);
	cr_expect_eq(json_object_get_int64(jget(rec, "console_info.replaced")), LINES * 10);
	cr_expect_eq(json_object_get_int64(jget(rec, "console_info.cap")), EL_OUTPUT_CAP);
	/* ESC became U+241B in the record, \x1b on the terminal. */
	cr_expect(strstr(jstr(rec, "console"), "\xe2\x90\x9b[2J"), "no ESC picture in the console");
	cr_expect(!strchr(p.err, '\x1b'), "-v let a raw ESC reach stderr");
	cr_expect(strstr(p.err, "\\x1b[2J"), "-v did not show the ESC escaped:\n%.2000s", p.err);
	cr_expect_gt(json_object_get_int64(jget(rec, "vmm.peak_rss_kb")), 0);
	json_object_put(rec);
	proc_free(&p);
}

Test(output_flood, stdout_flood_arrives_and_is_counted)
{
	const char *out = tmp_output("stdout.jsonl");
	struct json_object *rec;
	struct el_proc p;
	long long rss;

	entrylab(&p, "run", "-o", out, "--exec", FLOOD, "stdout", "256K", NULL);
	cr_expect_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect_eq(strlen(p.out) < 256 * 1024 ? 0 : 1, 0,
		     "stdout has raw NULs: strlen stops early, as it must");
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect_eq(json_object_get_int64(jget(rec, "vmm.program_output.bytes")), 256 * 1024);
	cr_expect_eq(json_object_get_int64(jget(rec, "vmm.program_output.dropped")), 0);
	rss = json_object_get_int64(jget(rec, "vmm.peak_rss_kb"));
	/* Guest memory touched plus the VMM: far below the default guest memory plus 64 MiB. */
	cr_expect(rss > 0 && rss < (512 + 64) * 1024, "peak RSS %lld KiB", rss);
	cr_log_info("stdout flood of 256 KiB: VMM peak RSS %lld KiB", rss);
	json_object_put(rec);
	proc_free(&p);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * `entrylab run --timeout 5 --exec flood stdout 512M | (sleep 100)`: the
 * reader never reads.  entrylab must return within 6 s, with a record
 * saying timeout, and say how much output it dropped.  Natively this is
 * vmm/hostout.c's deadline and the record's vmm.program_output.dropped.
 * Under the nested runner the inner VMM writes to a serial port that never
 * stalls for long, so the drops happen in the outer entrylab's copy to its
 * own stdout (harness/nested/nested_sink), which names them on stderr; and
 * the inner --timeout starts once the nested VM has booted, so the command
 * may take that boot longer (README, --timeout): -v makes the nested runner
 * print how long its VM took to come up, and the limit adds that (and more
 * slack for the teardown when the boot shows the host is busy).
 */
Test(output_flood, stalled_stdout_ends_at_the_deadline, .timeout = 180)
{
	char *out = strdup(tmp_output("stalled.jsonl")), *errf = strdup(tmp_output("stalled.err"));
	const double native_limit = 6.0;
	double limit = native_limit;
	bool nested;
	struct json_object *rec;
	int p[2], status = -1;
	double t0, t;
	char *err, ebuf[256];
	size_t elen;
	pid_t pid;

	cr_assert_eq(pipe(p), 0);
	t0 = now_s();
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int efd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(p[1], 1);
		dup2(efd, 2);
		close(p[0]);
		execl(EL_ENTRYLAB, EL_ENTRYLAB, "run", "-v", "--timeout", "5", "-o", out, "--exec", FLOOD,
		      "stdout", "512M", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/* Never read p[0]: the pipe stays full. */
	while (waitpid(pid, &status, WNOHANG) == 0 && now_s() - t0 < native_limit + 30)
		usleep(100000);
	t = now_s() - t0;
	if (waitpid(pid, &status, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(p[0]);
	rec = last_record(out);
	cr_assert(rec, "no record after a stalled stdout");
	nested = !strcmp(jstr(rec, "host.kvm") ? jstr(rec, "host.kvm") : "", "nested");
	err = io_read_file(errf, 4u << 20, &elen, ebuf, sizeof(ebuf));
	if (nested) {
		/* The runner's set-up, as the record has it (a warm one: ~0; booted: its boot). */
		double setup_s = json_object_get_double(jget(rec, "host.nested.setup_s"));

		cr_assert(jget(rec, "host.nested.setup_s"), "the record has no host.nested.setup_s");
		/*
		 * A second for the runner's hop (request, records, end), the
		 * set-up, and the second of slack for the teardown scaled by
		 * how much slower than on a quiet machine (2.5 s) a boot in it
		 * was: a busy host slows both alike.
		 */
		limit += 1.0 + setup_s + (setup_s > 2.5 ? setup_s / 2.5 - 1.0 : 0.0);
	}
	cr_expect_lt(t, limit,
		     "entrylab returned after %.1f s with its stdout stalled; "
		     "--timeout 5 allows %.0f s%s",
		     t, limit, nested ? " (the nested VM's boot included)" : "");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 124, "exit status 0x%x, want 124",
		  status);
	cr_expect_str_eq(jstr(rec, "status"), "timeout");
	/* Nested too: the stall reaches the inner VMM through the runner's backpressure. */
	cr_expect_gt(json_object_get_int64(jget(rec, "vmm.program_output.dropped")), 0, "%s",
		      jstr(rec, "detail"));
	cr_log_info("stalled stdout: %.1f s, VMM peak RSS %lld KiB", t,
		    (long long)json_object_get_int64(jget(rec, "vmm.peak_rss_kb")));
	free(err);
	free(out);
	free(errf);
	json_object_put(rec);
}

/*
 * `entrylab trace` of a guest flooding COM1 until --timeout kills it: under
 * QEMU TCG the flood passes the cap within seconds.  The record keeps the
 * head and the newest tail with the marker between, stays under 5 MB and is
 * plain valid UTF-8.
 */
Test(output_flood, trace_com1_flood_is_capped)
{
	const char *out = tmp_output("trace.jsonl");
	struct json_object *rec;
	struct el_proc p;
	size_t len = 0;
	char err[256], *raw;

	entrylab(&p, "trace", "--timeout", "20", "-o", out, "--exec", FLOOD, "com1", "100G", NULL);
	cr_expect_eq(p.status, 124, "exit %d\n%s", p.status, p.err);
	raw = io_read_file(out, 64u << 20, &len, err, sizeof(err));
	cr_assert(raw, "%s", err);
	cr_expect_lt(len, 5u << 20, "the record is %zu bytes", len);
	free(raw);
	expect_clean_file(out);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "status"), "timeout");
	cr_expect(json_object_get_boolean(jget(rec, "console_info.truncated")),
		  "a %lld-byte flood was not truncated",
		  (long long)json_object_get_int64(jget(rec, "console_info.bytes")));
	cr_expect_eq(json_object_get_int64(jget(rec, "console_info.kept")), EL_OUTPUT_CAP);
	cr_expect(strstr(jstr(rec, "console"), "bytes of output dropped here"), "no marker");
	cr_log_info("trace COM1 flood: %lld bytes written, record %zu bytes",
		    (long long)json_object_get_int64(jget(rec, "console_info.bytes")), len);
	json_object_put(rec);
	proc_free(&p);
}
