/*
 * The nested runner's pure parts: the argv handed to the VM (checked by
 * sourcing it with busybox sh, the VM's own shell), command-line heuristics,
 * path joining, the results stream, and the record lines appended on the
 * host (no QEMU, no KVM).
 */
#include <criterion/criterion.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nested.h"
#include "el_limits.h"
#include "nested_priv.h"
#include "record_out.h"

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert(f, "cannot open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

Test(nested, shell_quote)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	nested_shell_quote(f, "it's");
	fputc(' ', f);
	nested_shell_quote(f, "");
	fclose(f);
	cr_expect_str_eq(text, "'it'\\''s' ''");
	free(text);
}

Test(nested, argv_survives_the_vm_shell)
{
	char *argv[] = { "entrylab", "run", "a b", "it's", "", "$HOME", "`x`", "*", "two\nlines",
			 "\\", "-o", "out.jsonl" };
	int argc = sizeof(argv) / sizeof(argv[0]);
	char dir[] = "/tmp/test_nested.XXXXXX", script[64], out[64], cmd[512], expect[512] = "";
	char *text = nested_cmd_script(argc, argv, "/work/it's here");
	FILE *f;

	cr_assert(text);
	cr_assert(mkdtemp(dir));
	snprintf(script, sizeof(script), "%s/cmd", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	f = fopen(script, "w");
	fputs(text, f);
	fclose(f);
	free(text);
	snprintf(cmd, sizeof(cmd),
		 "busybox sh -c '. %s; printf \"<%%s>\" \"$EL_CWD\" \"$@\"' > %s 2>&1", script,
		 out);
	cr_assert_eq(system(cmd), 0, "sourcing failed: %s", slurp(out));
	snprintf(expect, sizeof(expect), "</work/it's here>");
	for (int i = 1; i < argc; i++)
		snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "<%s>", argv[i]);
	cr_expect_str_eq(slurp(out), expect);
	unlink(script);
	unlink(out);
	rmdir(dir);
}

Test(nested, path_join)
{
	const char *cases[][3] = {
		{ "/work/main", "bench", "/work/main/bench" },
		{ "/work/main", "./x/../bench", "/work/main/bench" },
		{ "/work/main", "../other/b", "/work/other/b" },
		{ "/work/main", "/abs//path/", "/abs/path" },
		{ "/", "a", "/a" },
		{ "/a", "../../..", "/" },
		{ "/work", ".", "/work" },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert(nested_path_join(cases[i][0], cases[i][1], out, sizeof(out)));
		cr_expect_str_eq(out, cases[i][2], "%s + %s", cases[i][0], cases[i][1]);
	}
	cr_expect(!nested_path_join("/a", "bbbbbbbbbb", out, 8), "overflow not reported");
}

struct sink {
	char data[256];
	size_t len;
};

static void sink_bytes(void *ctx, const char *data, size_t len)
{
	struct sink *k = ctx;

	cr_assert_leq(k->len + len, sizeof(k->data));
	memcpy(k->data + k->len, data, len);
	k->len += len;
}

static const char good_stream[] = "ELN1 ready 2.31\n"
				  "ELN1 records 5\n{\"a\":"
				  "ELN1 records 4\n1}\n\n"
				  "ELN1 exit 7\n";

Test(nested, stream_whole_and_byte_by_byte)
{
	for (size_t step = sizeof(good_stream); step >= 1; step = step > 1 ? 1 : 0) {
		struct nested_stream s;
		struct sink k = { .len = 0 };

		nested_stream_init(&s, sink_bytes, &k);
		for (size_t i = 0; i < sizeof(good_stream) - 1; i += step) {
			size_t n = sizeof(good_stream) - 1 - i;

			nested_stream_feed(&s, good_stream + i, n < step ? n : step);
		}
		cr_expect_str_eq(s.error, "");
		cr_expect(s.ready);
		cr_expect_float_eq(s.ready_uptime, 2.31, 1e-9);
		cr_expect(s.exited);
		cr_expect_eq(s.exit_status, 7);
		cr_expect_eq(k.len, 9);
		cr_expect(!memcmp(k.data, "{\"a\":1}\n\n", 9));
	}
}

Test(nested, stream_fail_line)
{
	struct nested_stream s;
	const char text[] = "ELN1 fail insmod kvm-amd.ko: No such device\r\n";

	nested_stream_init(&s, NULL, NULL);
	nested_stream_feed(&s, text, sizeof(text) - 1);
	cr_expect(s.failed);
	cr_expect(!s.exited);
	cr_expect_str_eq(s.fail_msg, "insmod kvm-amd.ko: No such device");
}

Test(nested, stream_violations)
{
	const char *bad[] = { "hello\n", "ELN1 exit 256\n", "ELN1 exit -1\n", "ELN1 exit\n",
			      "ELN1 records -5\n", "ELN1 records 12x\n", "ELN1 frob 1\n",
			      "ELN1 exit 0\nELN1 exit 0\n", "ELN1 killed 0\n", "ELN1 killed 200\n",
			      "ELN1 killed 11\nELN1 exit 0\n", "ELN1 lost x\n" };
	char longline[600];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nested_stream s;

		nested_stream_init(&s, NULL, NULL);
		nested_stream_feed(&s, bad[i], strlen(bad[i]));
		cr_expect_neq(s.error[0], 0, "accepted: %s", bad[i]);
	}
	memset(longline, 'x', sizeof(longline));
	{
		struct nested_stream s;

		nested_stream_init(&s, NULL, NULL);
		nested_stream_feed(&s, longline, sizeof(longline));
		cr_expect_neq(s.error[0], 0, "overlong line accepted");
	}
}

static void count_line(void *ctx, const char *line, size_t len)
{
	unsigned *n = ctx;

	cr_expect(len && line[0] == '{' && line[len - 1] == '}', "a whole line: %.*s", (int)len,
		  line);
	(*n)++;
}

Test(nested, records_whole_valid_lines_only)
{
	char path[] = "/tmp/test_nested_rec.XXXXXX";
	struct nested_records r;
	struct record_out out;
	const char *chunks[] = { "{\"schema\":", "\"x\",\"n\":1}\n{\"n\"", ":2}\nnot json\n[1]\n",
				 "{\"n\":3}\n{\"n\":4" };
	unsigned seen = 0;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "{\"old\":0}\n", 10), 10);
	close(fd);
	cr_assert_eq(record_out_open(&out, "test", path), 0);
	nested_records_init(&r, &out);
	r.on_record = count_line;
	r.ctx = &seen;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		nested_records_feed(&r, chunks[i], strlen(chunks[i]));
	cr_expect_eq(nested_records_close(&r), 6, "the unfinished line is reported");
	cr_expect_eq(r.written, 3);
	cr_expect_eq(out.written, 3);
	cr_expect_eq(seen, 3, "each record told once it is on disk");
	cr_expect_eq(r.rejected, 2);
	cr_expect_eq(record_out_close(&out), 0);
	cr_expect_str_eq(slurp(path),
			 "{\"old\":0}\n{\"schema\":\"x\",\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
	unlink(path);
}

Test(nested, records_without_an_output_are_a_failure)
{
	struct nested_records r;

	nested_records_init(&r, NULL);
	nested_records_feed(&r, "{}\n", 3);
	cr_expect(r.failed);
	cr_expect_eq(r.written, 0);
	nested_records_close(&r);
}

Test(nested, records_that_cannot_be_written_are_a_failure)
{
	char path[] = "/tmp/test_nested_rec.XXXXXX";
	struct nested_records r;
	struct record_out out;
	int fd = mkstemp(path), ro;

	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(record_out_open(&out, "test", path), 0);
	/* The descriptor now refuses writes, as a full or failing disk would. */
	ro = open(path, O_RDONLY);
	cr_assert_geq(ro, 0);
	dup2(ro, out.fd);
	close(ro);
	nested_records_init(&r, &out);
	nested_records_feed(&r, "{\"n\":1}\n", 8);
	cr_expect(r.failed);
	cr_expect(out.failed);
	cr_expect_eq(r.written, 0);
	nested_records_feed(&r, "{\"n\":2}\n", 8);
	cr_expect_eq(out.written, 0, "nothing more is written after a failure");
	nested_records_close(&r);
	cr_expect_eq(record_out_close(&out), -1, "the close reports the lost records");
	unlink(path);
}

Test(nested, inner_environment)
{
	unsetenv(NESTED_ENV_INNER);
	setenv(NESTED_ENV_OUTPUT, "/nested/records.jsonl", 1);
	cr_expect(!nested_is_inner());
	cr_expect_null(nested_inner_output());
	setenv(NESTED_ENV_INNER, "1", 1);
	cr_expect(nested_is_inner());
	cr_expect_str_eq(nested_inner_output(), "/nested/records.jsonl");
	unsetenv(NESTED_ENV_INNER);
	unsetenv(NESTED_ENV_OUTPUT);
}

/* How the inner entrylab ended: a signal and an end without a status are not exit statuses. */
Test(nested, stream_killed_and_lost)
{
	struct nested_stream s;
	const char killed[] = "ELN1 ready 1.0\nELN1 killed 11\n", lost[] = "ELN1 lost 139\n";

	nested_stream_init(&s, NULL, NULL);
	nested_stream_feed(&s, killed, sizeof(killed) - 1);
	cr_expect_str_eq(s.error, "");
	cr_expect(s.exited);
	cr_expect_eq(s.killed_signal, 11);
	cr_expect(!s.lost);
	nested_stream_init(&s, NULL, NULL);
	nested_stream_feed(&s, lost, sizeof(lost) - 1);
	cr_expect_str_eq(s.error, "");
	cr_expect(s.exited && s.lost);
	cr_expect_eq(s.exit_status, 139);
	cr_expect_eq(s.killed_signal, 0);
}

/* The nested stream's forwarding: capped, and never blocked by a reader that stalls. */
Test(nested, sink_cap_stall_and_close)
{
	static char big[2 << 20];
	struct nested_sink k;
	struct timespec t0, t1;
	char note[300], buf[64];
	int p[2];

	cr_assert_eq(pipe(p), 0);
	nested_sink_init(&k, p[1], "stdout");
	cr_expect_eq(k.cap, EL_NESTED_STREAM_CAP);
	k.cap = 50;
	nested_sink_write(&k, big, 100);
	cr_expect_eq(k.passed, 50);
	cr_expect_eq(k.dropped_cap, 50);
	cr_expect_eq(read(p[0], buf, sizeof(buf)), 50);
	cr_expect(nested_sink_note(&k, note, sizeof(note)));
	cr_expect(strstr(note, "dropped 50 over the"), "%s", note);

	/* Nobody reads: the pipe fills, then the sink gives up within NESTED_STALL_MS. */
	nested_sink_init(&k, p[1], "stdout");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	nested_sink_write(&k, big, sizeof(big));
	nested_sink_write(&k, big, sizeof(big)); /* stalled: returns at once */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_expect(k.stalled);
	cr_expect_lt(k.passed, sizeof(big));
	cr_expect_eq(k.passed + k.dropped_stall + k.dropped_cap, 2 * sizeof(big));
	cr_expect_lt((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
		     NESTED_STALL_MS / 1000.0 + 0.5, "the stall must cost at most one wait");
	cr_expect(nested_sink_note(&k, note, sizeof(note)));
	cr_expect(strstr(note, "stalled reader"), "%s", note);

	/* A closed reader: nothing more is written, the run goes on. */
	close(p[0]);
	nested_sink_init(&k, p[1], "stdout");
	nested_sink_write(&k, big, 10);
	cr_expect(k.broken || k.stalled);
	cr_expect_eq(k.passed, 0);
	close(p[1]);
}
