/*
 * The nested runner's pure parts (no QEMU, no KVM): the wire between host
 * and agent (requests, marks, control frames; harness/nested/nested_wire.h),
 * path joining, the output sink's backpressure, and the record lines
 * appended on the host.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "nested.h"
#include "nested_priv.h"
#include "nested_wire.h"
#include "record_nested.h"
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

static struct nested_cmd cmd; /* 40 KiB: off the stack */

/* Finds the one request in b (after junk, if any); the decoding error in err. */
static bool find_request(struct nested_buf *b, char *err, size_t errlen)
{
	bool found;
	size_t need, drop = nested_req_find(b->p, b->len, &cmd, &found, &need, err, errlen);

	cr_assert_leq(drop, b->len);
	return found;
}

/* argv, the cwd, the environment and the files arrive as the host had them. */
Test(nested, request_round_trip)
{
	char *argv[] = {"entrylab", "run", "a b", "it's", "", "$HOME", "`x`", "*", "two\nlines",
			"\\", "-o", "out.jsonl", "--exec", "tests/prog"};
	const char *files[] = {"tests/prog", NULL};
	char dir[] = "/tmp/test_nested.XXXXXX", cwd[4096], err[300], want[4200];
	struct nested_request r = {.argc = EL_ARRAY_SIZE(argv), .argv = argv, .files = files};
	struct nested_runner rn = {.warm = true, .started = true, .wait_s = 0.25, .setup_s = 1.5};
	struct nested_buf b = {0};
	bool saw_runner = false, saw_setup = false;
	int fd;

	cr_assert(getcwd(cwd, sizeof(cwd)));
	cr_assert(mkdtemp(dir));
	cr_assert_eq(chdir(dir), 0);
	cr_assert_eq(mkdir("tests", 0755), 0);
	fd = open("tests/prog", O_WRONLY | O_CREAT, 0751);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "\0ELF\0", 5), 5);
	close(fd);
	setenv("ENTRYLAB_KVM_DEVICE", "/nonexistent", 1);
	cr_assert_eq(nested_request_encode(&b, 42, &r, &rn), 0);
	unsetenv("ENTRYLAB_KVM_DEVICE");
	cr_assert(find_request(&b, err, sizeof(err)), "no request found");
	cr_expect_str_eq(err, "");
	cr_expect_eq(cmd.nonce, 42);
	cr_expect(!cmd.ping);
	cr_expect_str_eq(cmd.cwd, dir);
	cr_assert_eq(cmd.nargs, r.argc - 1);
	for (int i = 1; i < r.argc; i++)
		cr_expect_str_eq(cmd.args[i - 1], argv[i]);
	cr_expect_null(cmd.args[cmd.nargs]);
	for (unsigned i = 0; i < cmd.nenv; i++) {
		saw_runner |= !strcmp(cmd.env[i], EL_NESTED_ENV_RUNNER "=warm");
		saw_setup |= !strcmp(cmd.env[i], EL_NESTED_ENV_SETUP "=1.500");
		/* The host's device choice is not the VM's (vmm/kvm.h). */
		cr_expect(strncmp(cmd.env[i], "ENTRYLAB_KVM_DEVICE=", 20), "%s", cmd.env[i]);
	}
	cr_expect(saw_runner && saw_setup, "the runner's path and set-up time are sent");
	cr_assert_eq(cmd.nfiles, 1);
	snprintf(want, sizeof(want), "%s/tests/prog", dir);
	cr_expect_str_eq(cmd.files[0].path, want);
	cr_expect_eq(cmd.files[0].mode, 0751);
	cr_expect_eq(cmd.files[0].len, 5);
	cr_expect(!memcmp(cmd.files[0].data, "\0ELF\0", 5));
	nested_buf_free(&b);
	unlink("tests/prog");
	rmdir("tests");
	cr_assert_eq(chdir(cwd), 0);
	rmdir(dir);
}

/* Bytes of an earlier, broken request are skipped: a bad CRC is junk, not a command. */
Test(nested, request_after_junk_and_a_torn_one)
{
	struct nested_buf good = {0}, torn = {0}, all = {0};
	char err[300];
	bool found;
	size_t need, drop;

	nested_req_begin(&torn, 1);
	nested_req_item(&torn, NESTED_ITEM_ARG, "run", 3);
	nested_req_item(&torn, NESTED_ITEM_CWD, "/", 1);
	cr_assert(nested_req_end(&torn));
	torn.p[torn.len - 1] ^= 0x20; /* a flipped bit */
	nested_req_begin(&good, 2);
	nested_req_item(&good, NESTED_ITEM_ARG, "getpid", 6);
	nested_req_item(&good, NESTED_ITEM_CWD, "/work", 5);
	cr_assert(nested_req_end(&good));
	nested_buf_put(&all, "ELNQ garbage", 12);
	nested_buf_put(&all, torn.p, torn.len);
	nested_buf_put(&all, good.p, good.len);
	/* Fed a byte more at a time, as a port delivers it. */
	for (size_t have = 1; have <= all.len; have++) {
		char *copy = malloc(have);

		memcpy(copy, all.p, have);
		drop = nested_req_find(copy, have, &cmd, &found, &need, err, sizeof(err));
		cr_assert_leq(drop, have);
		if (found) {
			cr_expect_eq(have, all.len, "found before the request was whole");
			cr_expect_eq(cmd.nonce, 2);
			cr_expect_str_eq(cmd.args[0], "getpid");
			cr_expect_str_eq(cmd.cwd, "/work");
			cr_expect_eq(drop, all.len);
		}
		free(copy);
		if (found)
			break;
	}
	cr_expect(found);
	nested_buf_free(&good);
	nested_buf_free(&torn);
	nested_buf_free(&all);
}

Test(nested, request_items_are_checked)
{
	struct {
		enum nested_item kind;
		const char *text;
		size_t len;
	} bad[] = {
		{NESTED_ITEM_CWD, "relative", 8},
		{NESTED_ITEM_CWD, "/a/../b", 7},
		{NESTED_ITEM_ENV, "NOEQUALS", 8},
		{NESTED_ITEM_ARG, "a\0b", 3},
		{99, "x", 1},
	};
	char err[300];

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		struct nested_buf b = {0};

		nested_req_begin(&b, 7);
		nested_req_item(&b, NESTED_ITEM_ARG, "run", 3);
		if (bad[i].kind != NESTED_ITEM_CWD)
			nested_req_item(&b, NESTED_ITEM_CWD, "/", 1);
		nested_req_item(&b, bad[i].kind, bad[i].text, bad[i].len);
		cr_assert(nested_req_end(&b));
		cr_assert(find_request(&b, err, sizeof(err)));
		cr_expect_neq(err[0], 0, "accepted item %zu", i);
		nested_buf_free(&b);
	}
}

struct bytes {
	char data[1024];
	size_t len;
};

static void collect(void *ctx, const char *data, size_t len)
{
	struct bytes *k = ctx;

	cr_assert_leq(k->len + len, sizeof(k->data));
	memcpy(k->data + k->len, data, len);
	k->len += len;
}

/*
 * The data stream: junk, the begin mark, output that holds a near-mark and
 * another nonce's mark, the end mark, more junk; every split into two chunks.
 */
Test(nested, marks_split_anywhere)
{
	uint8_t begin[NESTED_MARK_LEN], end[NESTED_MARK_LEN], other[NESTED_MARK_LEN];
	char stream[256], want[128];
	size_t len = 0, wlen = 0;

	nested_mark(begin, NESTED_MARK_BEGIN, 99);
	nested_mark(end, NESTED_MARK_END, 99);
	nested_mark(other, NESTED_MARK_END, 98);
	memcpy(stream + len, "old output", 10), len += 10;
	memcpy(stream + len, begin, sizeof(begin)), len += sizeof(begin);
	memcpy(want + wlen, "ELNM", 4), wlen += 4;
	memcpy(want + wlen, end, 9), wlen += 9; /* the start of the real mark, not all of it */
	memcpy(want + wlen, other, sizeof(other)), wlen += sizeof(other);
	memcpy(want + wlen, "tail", 4), wlen += 4;
	memcpy(stream + len, want, wlen), len += wlen;
	memcpy(stream + len, end, sizeof(end)), len += sizeof(end);
	memcpy(stream + len, "late", 4), len += 4;

	for (size_t cut1 = 0; cut1 <= len; cut1++) {
		for (size_t cut2 = cut1; cut2 <= len; cut2++) {
			struct nested_mark_scan b, e;
			struct bytes got = {.len = 0};
			size_t cuts[4] = {0, cut1, cut2, len};

			nested_mark_scan_init(&b, NESTED_MARK_BEGIN, 99);
			nested_mark_scan_init(&e, NESTED_MARK_END, 99);
			for (int c = 0; c < 3; c++) {
				const char *d = stream + cuts[c];
				size_t n = cuts[c + 1] - cuts[c];

				while (n) {
					size_t used = !b.found
						? nested_mark_scan_feed(&b, d, n, NULL, NULL)
						: !e.found ? nested_mark_scan_feed(&e, d, n, collect, &got)
							   : n;

					if (!used)
						break;
					d += used;
					n -= used;
				}
			}
			cr_assert(b.found && e.found, "cuts %zu %zu", cut1, cut2);
			cr_assert_eq(got.len, wlen, "cuts %zu %zu: %zu bytes", cut1, cut2, got.len);
			cr_assert(!memcmp(got.data, want, wlen), "cuts %zu %zu", cut1, cut2);
		}
	}
}

static void put_frame(struct nested_buf *b, enum nested_frame type, const void *data, size_t len)
{
	struct nested_frame_head h;

	nested_frame_head(&h, type, len);
	nested_buf_put(b, &h, sizeof(h));
	nested_buf_put(b, data, len);
}

Test(nested, control_frames_whole_and_byte_by_byte)
{
	struct nested_ack ack = {.seq = 3, .uptime_ms = 5000, .ready_ms = 2100};
	struct nested_exit ex = {.how = NESTED_EXITED, .value = 7};
	struct nested_buf b = {0};

	put_frame(&b, NESTED_F_ACK, &ack, sizeof(ack));
	put_frame(&b, NESTED_F_RECORDS, "{\"a\":", 5);
	put_frame(&b, NESTED_F_LOG, "kvm: loaded\n", 12);
	put_frame(&b, NESTED_F_RECORDS, "1}\n", 3);
	put_frame(&b, NESTED_F_EXIT, &ex, sizeof(ex));
	for (size_t step = b.len; step >= 1; step = step > 1 ? 1 : 0) {
		static struct nested_ctl c;
		struct bytes recs = {.len = 0};

		cr_assert(nested_ctl_init(&c, collect, NULL, &recs));
		for (size_t i = 0; i < b.len; i += step)
			nested_ctl_feed(&c, b.p + i, b.len - i < step ? b.len - i : step);
		cr_expect_str_eq(c.error, "");
		cr_expect(c.acked && c.exited && !c.failed);
		cr_expect_eq(c.ack.seq, 3);
		cr_expect_eq(c.exit.value, 7);
		cr_expect_eq(recs.len, 8);
		cr_expect(!memcmp(recs.data, "{\"a\":1}\n", 8));
		nested_ctl_free(&c);
	}
	nested_buf_free(&b);
}

/* A VM that breaks the protocol is caught, never trusted. */
Test(nested, control_frame_violations)
{
	struct nested_ack ack = {.seq = 1};
	struct nested_exit bad_status = {.how = NESTED_EXITED, .value = 256},
			   bad_signal = {.how = NESTED_KILLED, .value = 0},
			   bad_how = {.how = 9, .value = 0}, ok = {.how = NESTED_EXITED};
	struct {
		const char *what;
		enum nested_frame type;
		const void *data;
		size_t len;
		bool ack_first;
	} cases[] = {
		{"records before ACK", NESTED_F_RECORDS, "x", 1, false},
		{"second ACK", NESTED_F_ACK, &ack, sizeof(ack), true},
		{"short ACK", NESTED_F_ACK, &ack, 4, false},
		{"status 256", NESTED_F_EXIT, &bad_status, sizeof(bad_status), true},
		{"signal 0", NESTED_F_EXIT, &bad_signal, sizeof(bad_signal), true},
		{"unknown how", NESTED_F_EXIT, &bad_how, sizeof(bad_how), true},
		{"unknown type", 77, "x", 1, true},
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		static struct nested_ctl c;
		struct nested_buf b = {0};

		if (cases[i].ack_first)
			put_frame(&b, NESTED_F_ACK, &ack, sizeof(ack));
		put_frame(&b, cases[i].type, cases[i].data, cases[i].len);
		cr_assert(nested_ctl_init(&c, NULL, NULL, NULL));
		nested_ctl_feed(&c, b.p, b.len);
		cr_expect_neq(c.error[0], 0, "accepted: %s", cases[i].what);
		nested_ctl_free(&c);
		nested_buf_free(&b);
	}
	{
		static struct nested_ctl c;
		struct nested_frame_head h = {.type = NESTED_F_LOG, .len = NESTED_FRAME_MAX + 1};
		struct nested_buf b = {0};

		put_frame(&b, NESTED_F_ACK, &ack, sizeof(ack));
		put_frame(&b, NESTED_F_EXIT, &ok, sizeof(ok));
		put_frame(&b, NESTED_F_LOG, "x", 1);
		cr_assert(nested_ctl_init(&c, NULL, NULL, NULL));
		nested_ctl_feed(&c, b.p, b.len);
		cr_expect_str_eq(c.error, "a frame after EXIT");
		nested_ctl_free(&c);
		cr_assert(nested_ctl_init(&c, NULL, NULL, NULL));
		nested_ctl_feed(&c, (const char *)&h, sizeof(h));
		cr_expect_neq(c.error[0], 0, "an oversized frame was accepted");
		nested_ctl_free(&c);
		nested_buf_free(&b);
	}
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

	for (size_t i = 0; i < EL_ARRAY_SIZE(cases); i++) {
		cr_assert(nested_path_join(cases[i][0], cases[i][1], out, sizeof(out)));
		cr_expect_str_eq(out, cases[i][2], "%s + %s", cases[i][0], cases[i][1]);
	}
	cr_expect(!nested_path_join("/a", "bbbbbbbbbb", out, 8), "overflow not reported");
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
	for (size_t i = 0; i < EL_ARRAY_SIZE(chunks); i++)
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

/* The record's host.nested, from what the runner put in the environment. */
Test(nested, record_says_which_path)
{
	struct json_object *o, *v;

	unsetenv(EL_NESTED_ENV_RUNNER);
	cr_expect_null(record_nested_json(), "outside the runner: no host.nested");
	setenv(EL_NESTED_ENV_RUNNER, "warm", 1);
	setenv(EL_NESTED_ENV_STARTED, "0", 1);
	setenv(EL_NESTED_ENV_SETUP, "0.012", 1);
	setenv(EL_NESTED_ENV_WAIT, "x", 1);
	setenv(EL_NESTED_ENV_RUNNER_SEQ, "17", 1);
	o = record_nested_json();
	cr_assert(o);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "runner")), "warm");
	cr_expect(!json_object_get_boolean(json_object_object_get(o, "runner_started")));
	cr_expect_float_eq(json_object_get_double(json_object_object_get(o, "setup_s")), 0.012,
			   1e-9);
	cr_expect_eq(json_object_get_int64(json_object_object_get(o, "runner_commands")), 17);
	cr_expect(!json_object_object_get_ex(o, "wait_s", &v), "a value that does not parse "
		  "is left out");
	json_object_put(o);
	setenv(EL_NESTED_ENV_RUNNER, "lukewarm", 1);
	cr_expect_null(record_nested_json(), "an unknown path is not recorded");
	unsetenv(EL_NESTED_ENV_RUNNER);
	unsetenv(EL_NESTED_ENV_STARTED);
	unsetenv(EL_NESTED_ENV_SETUP);
	unsetenv(EL_NESTED_ENV_WAIT);
	unsetenv(EL_NESTED_ENV_RUNNER_SEQ);
}

/*
 * The sink passes output on as a pipe would: what a full pipe does not take
 * waits, nothing is dropped; once given up (the command ended and the reader
 * took nothing), the rest is counted; a closed reader breaks it.
 */
Test(nested, sink_waits_for_the_reader)
{
	static char chunk[65536], buf[65536];
	struct nested_sink k;
	size_t read_total = 0;
	char note[300];
	int p[2];

	memset(chunk, 'x', sizeof(chunk));
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	nested_sink_init(&k, p[1], "stdout");
	cr_expect(k.chunked, "a pipe takes PIPE_BUF at a time");
	/* Four chunks through a 64 KiB pipe: the sink holds what does not fit, never drops. */
	for (int i = 0; i < 4; i++) {
		nested_sink_put(&k, chunk, sizeof(chunk));
		while (nested_sink_pending(&k)) {
			ssize_t n;

			nested_sink_flush(&k);
			n = read(p[0], buf, sizeof(buf));
			if (n > 0)
				read_total += (size_t)n;
		}
	}
	for (ssize_t n; (n = read(p[0], buf, sizeof(buf))) > 0;)
		read_total += (size_t)n;
	cr_expect_eq(read_total, 4 * sizeof(chunk));
	cr_expect_eq(k.passed, 4 * sizeof(chunk));
	cr_expect_eq(k.dropped, 0);
	cr_expect(!nested_sink_note(&k, note, sizeof(note)));

	/* Nobody reads: flush returns (never blocks); giving up counts what was held. */
	nested_sink_put(&k, chunk, sizeof(chunk));
	nested_sink_flush(&k); /* fills the pipe */
	nested_sink_put(&k, chunk, sizeof(chunk));
	nested_sink_flush(&k);
	cr_expect(nested_sink_pending(&k), "a full pipe took more");
	nested_sink_give_up(&k);
	nested_sink_put(&k, chunk, 100);
	cr_expect_eq(k.dropped, sizeof(chunk) + 100);
	cr_expect_eq(k.passed, 5 * sizeof(chunk));
	cr_expect(nested_sink_note(&k, note, sizeof(note)));
	cr_expect(strstr(note, "stalled reader"), "%s", note);

	/* A closed reader: the rest is dropped, the run goes on. */
	signal(SIGPIPE, SIG_IGN); /* as entrylab's main() does */
	close(p[0]);
	nested_sink_init(&k, p[1], "stdout");
	nested_sink_put(&k, chunk, 10);
	nested_sink_flush(&k);
	cr_expect(k.broken);
	cr_expect_eq(k.passed, 0);
	cr_expect_eq(k.dropped, 10);
	close(p[1]);
}
