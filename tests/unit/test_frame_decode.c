/*
 * The host's COM1 frame decoder (vmm/frame_decode.c) and the frames' result
 * (frame_result.c), against lines made by the guest's own encoder
 * (guest-kernel/lib/serial_frame.c; text frames, longer than it allows, by
 * put_text_frame here): good frames, console text kept apart, and every
 * malformed stream refused with its problem named.  A Linux /init's INFO
 * text (frame_linux_info, vmm/frame_linux.c) at the end.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/knobs.h"
#include "frame.h"
#include "guest-kernel/lib/serial_frame.h"

static char text[65536];
static size_t text_len;
static struct frame_scan scan;
static struct el_run_result res;

static void report_init(struct el_report *r, uint32_t kind)
{
	memset(r, 0, sizeof(*r));
	r->magic = EL_REPORT_MAGIC;
	r->abi_version = EL_ABI_VERSION;
	r->size = sizeof(*r);
	r->kind = kind;
	memset(r->config, EL_CONFIG_UNSET, sizeof(r->config));
	memset(r->requested, EL_CONFIG_UNSET, sizeof(r->requested));
}

static void put_text(const char *s)
{
	size_t n = strlen(s);

	cr_assert_lt(text_len + n, sizeof(text));
	memcpy(text + text_len, s, n);
	text_len += n;
}

static void put_frame(const char *kind, const void *payload, size_t len)
{
	size_t n = serial_frame_format(text + text_len, sizeof(text) - text_len, kind, payload, len);

	cr_assert_gt(n, 0);
	text_len += n;
}

static void put_report(uint32_t kind)
{
	struct el_report r;

	report_init(&r, kind);
	put_frame(kind == EL_REPORT_BOOT ? EL_FRAME_KIND_BOOT : EL_FRAME_KIND_RUN, &r, sizeof(r));
}

static void put_exit(uint32_t v)
{
	uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

	put_frame(EL_FRAME_KIND_EXIT, le, 4);
}

/* A text frame as serial_frame.h specifies it, for any LEN (the guest's encoder stops at 624). */
static void put_text_frame(const char *kind, const void *payload, size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	const unsigned char *b = payload;
	char head[64];

	snprintf(head, sizeof(head), "\n" EL_FRAME_TAG "%s %zu ", kind, len);
	put_text(head);
	cr_assert_lt(text_len + 2 * len + 10, sizeof(text));
	for (size_t i = 0; i < len; i++) {
		text[text_len++] = hexd[b[i] >> 4];
		text[text_len++] = hexd[b[i] & 15];
	}
	snprintf(head, sizeof(head), " %08x\n", frame_crc(payload, len));
	put_text(head);
}

static void put_info(const char *s)
{
	put_text_frame(EL_FRAME_KIND_INFO, s, strlen(s));
}

static void decode(void)
{
	cr_assert_eq(frame_decode(text, text_len, &scan), 0);
	memset(&res, 0, sizeof(res));
	frame_result(&scan, &res);
}

static void reset(void)
{
	text_len = 0;
	memset(&scan, 0, sizeof(scan));
}

static void done(void)
{
	frame_scan_free(&scan);
}

TestSuite(frame_decode, .init = reset, .fini = done);

Test(frame_decode, good_frames_and_console_apart)
{
	put_text("boot: hello\n");
	put_report(EL_REPORT_BOOT);
	put_text("program output\npartial");
	put_report(EL_REPORT_RUN);
	put_text(" line\n");
	put_exit(7);
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_eq(scan.nr_frames, 3);
	cr_assert_eq(res.status, EL_RUN_OK, "%s", res.detail);
	cr_assert_eq(res.exit_status, 7);
	cr_assert(res.have_boot && res.have_run);
	/* the frames' own newlines are gone: the console reads as it would under KVM */
	cr_assert_str_eq(scan.console, "boot: hello\nprogram output\npartial line\n");
}

Test(frame_decode, panic_exit_is_a_crash)
{
	put_report(EL_REPORT_BOOT);
	put_exit(EL_PORT_EXIT_PANIC + 14);
	decode();
	cr_assert_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_assert_eq(res.panic_vector, 14);
	cr_assert(strstr(res.detail, "vector 14"), "%s", res.detail);
}

Test(frame_decode, bad_crc)
{
	char *crc;

	put_report(EL_REPORT_BOOT);
	put_exit(0);
	crc = text + text_len - 2; /* the CRC's last digit */
	*crc = *crc == '0' ? '1' : '0';
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "CRC"), "%s", scan.err);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(res.have_boot, "the BOOT frame before the bad one is kept");
}

Test(frame_decode, payload_byte_changed_fails_crc)
{
	char *hex;

	put_report(EL_REPORT_BOOT);
	hex = strstr(text, " BOOT ");
	hex = strchr(hex + 6, ' ') + 1;
	hex[10] = hex[10] == 'a' ? 'b' : 'a';
	put_exit(0);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "CRC"), "%s", scan.err);
}

Test(frame_decode, cut_line)
{
	put_report(EL_REPORT_BOOT);
	put_exit(0);
	text_len -= 6; /* the stream stops inside the EXIT frame */
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "cut"), "%s", scan.err);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
}

Test(frame_decode, bad_hex)
{
	char *hex;

	put_exit(0);
	hex = strstr(text, "EXIT 4 ") + 7;
	hex[0] = 'G';
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "hex"), "%s", scan.err);
}

Test(frame_decode, upper_case_hex_refused)
{
	put_text("\n" EL_FRAME_TAG "EXIT 4 0A000000 00000000\n");
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "lower-case hex"), "%s", scan.err);
}

Test(frame_decode, oversize_len)
{
	put_text("\n" EL_FRAME_TAG "BOOT 100000 00 00000000\n");
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "LEN"), "%s", scan.err);
	reset();
	{
		char line[64];

		snprintf(line, sizeof(line), "\n" EL_FRAME_TAG "BOOT %u 00 00000000\n",
			 EL_FRAME_PAYLOAD_MAX + 1);
		put_text(line);
	}
	decode();
	cr_assert(strstr(scan.err, "EL_FRAME_PAYLOAD_MAX"), "%s", scan.err);
}

Test(frame_decode, len_not_the_kind_s)
{
	uint8_t two[2] = {1, 2};

	put_frame(EL_FRAME_KIND_EXIT, two, 2);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "carries 4 bytes"), "%s", scan.err);
}

Test(frame_decode, overlong_line)
{
	static char line[EL_FRAME_LINE_MAX + 64];

	memset(line, 'a', sizeof(line) - 1);
	memcpy(line, EL_FRAME_TAG, sizeof(EL_FRAME_TAG) - 1);
	line[sizeof(line) - 2] = '\n';
	put_text(line);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "longer than any frame"), "%s", scan.err);
}

Test(frame_decode, unknown_kind)
{
	put_text("\n" EL_FRAME_TAG "HELLO 4 00000000 2144df1c\n");
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "kind 'HELLO'"), "%s", scan.err);
}

Test(frame_decode, duplicate_boot)
{
	put_report(EL_REPORT_BOOT);
	put_report(EL_REPORT_BOOT);
	put_exit(0);
	decode();
	cr_assert_not(scan.bad, "the frames are well formed: %s", scan.err);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "BOOT report sent twice"), "%s", res.detail);
}

Test(frame_decode, run_before_boot)
{
	put_report(EL_REPORT_RUN);
	put_exit(0);
	decode();
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "before any BOOT"), "%s", res.detail);
}

Test(frame_decode, frame_kind_disagrees_with_report)
{
	struct el_report r;

	report_init(&r, EL_REPORT_RUN);
	put_frame(EL_FRAME_KIND_BOOT, &r, sizeof(r));
	put_exit(0);
	decode();
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "kind"), "%s", res.detail);
}

Test(frame_decode, report_refused_by_report_check)
{
	struct el_report r;

	report_init(&r, EL_REPORT_BOOT);
	r.magic = 0x12345678;
	put_frame(EL_FRAME_KIND_BOOT, &r, sizeof(r));
	put_exit(0);
	decode();
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "magic"), "%s", res.detail);
	cr_assert_not(res.have_boot);
}

Test(frame_decode, exit_missing)
{
	put_text("booting\n");
	put_report(EL_REPORT_BOOT);
	decode();
	cr_assert_not(scan.bad);
	cr_assert_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_assert(strstr(res.detail, "no EXIT frame"), "%s", res.detail);
	cr_assert(strstr(res.detail, "after its BOOT report"), "%s", res.detail);
}

Test(frame_decode, frame_after_exit)
{
	put_report(EL_REPORT_BOOT);
	put_exit(0);
	put_exit(1);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "after the EXIT frame"), "%s", scan.err);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
}

Test(frame_decode, exit_value_out_of_range)
{
	put_exit(0x5000);
	decode();
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "neither a status"), "%s", res.detail);
}

Test(frame_decode, garbage_between_frames)
{
	put_text("\x1b[2J junk \xff\xfe @entrylab-frame-v1 not at a line start\n");
	put_report(EL_REPORT_BOOT);
	put_text("@entrylab-frame\n"); /* a tag prefix, not the tag: console text */
	put_text("\n\n\n");
	put_report(EL_REPORT_RUN);
	put_text("more junk without newline");
	put_exit(3);
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_eq(res.status, EL_RUN_OK, "%s", res.detail);
	cr_assert_eq(res.exit_status, 3);
	cr_assert(strstr(scan.console, "not at a line start\n"));
	cr_assert(strstr(scan.console, "@entrylab-frame\n\n\n"));
	cr_assert(strstr(scan.console, "more junk without newline"));
}

Test(frame_decode, crlf_tolerated)
{
	char line[64], *nl;
	uint8_t le[4] = {5, 0, 0, 0};
	size_t n = serial_frame_format(line, sizeof(line), EL_FRAME_KIND_EXIT, le, 4);

	line[n - 1] = '\0';
	nl = line + 1; /* without the leading newline */
	put_text("x\r\n");
	put_text(nl);
	put_text("\r\n");
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_eq(res.exit_status, 5);
	cr_assert_str_eq(scan.console, "x");
}

Test(frame_decode, frame_after_frame_takes_no_console_newline)
{
	put_text("line\r\n" EL_FRAME_TAG "EXIT 4 00000000 2144df1c\n");
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_str_eq(scan.console, "line", "the \\r\\n before the tag line is the frame's");
	frame_scan_free(&scan);
	reset();
	/* A tag line right after a frame line: the console's last newline is the console's. */
	put_text("line\n");
	put_report(EL_REPORT_BOOT);
	put_text(EL_FRAME_TAG "EXIT 4 00000000 2144df1c\n");
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_str_eq(scan.console, "line\n", "only the empty line before BOOT was unwound");
	frame_scan_free(&scan);
	reset();
	/*
	 * "\r\r\n" + frame + "\n" + frame: the first frame takes "\r\n", the second
	 * only its empty line's "\n", not the '\r' left of another line.
	 */
	put_text("x\r\r");
	put_report(EL_REPORT_BOOT);
	put_exit(0);
	decode();
	cr_assert_str_eq(scan.console, "x\r");
}

Test(frame_decode, empty_stream)
{
	decode();
	cr_assert_eq(scan.console_len, 0);
	cr_assert_eq(res.status, EL_RUN_GUEST_CRASH);
	cr_assert(strstr(res.detail, "before any report"), "%s", res.detail);
}

Test(frame_decode, crc_is_zlib_s)
{
	cr_assert_eq(frame_crc("123456789", 9), serial_frame_crc32("123456789", 9));
	cr_assert_eq(frame_crc("123456789", 9), 0xcbf43926u);
}

/* ---- text frames: INFO and KSYMS (a Linux /init's) ---- */

Test(frame_decode, linux_stream_info_ksyms)
{
	put_text("[    0.000000] Linux version 6.1.0\n");
	put_info("release=6.1.0-57-amd64\ncmdline=console=ttyS0 pti=on\nmeltdown=Mitigation: PTI\n"
		 "clocksource=tsc\nvsyscall=xonly\nktext=ffffffff81000000\n");
	put_report(EL_REPORT_BOOT);
	put_text("getpid iterations=2000\n");
	put_report(EL_REPORT_RUN);
	put_text_frame(EL_FRAME_KIND_KSYMS, "ffffffff81000000 T _text\n", 25);
	put_text_frame(EL_FRAME_KIND_KSYMS, "ffffffff81000010 t foo\n", 23);
	put_exit(0);
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_eq(res.status, EL_RUN_OK, "%s", res.detail);
	cr_assert_eq(scan.count[FRAME_INFO], 1);
	cr_assert_eq(scan.count[FRAME_KSYMS], 2);
	cr_assert_str_eq(scan.ksyms, "ffffffff81000000 T _text\nffffffff81000010 t foo\n");
	cr_assert_eq(scan.ksyms_len, 48);
	cr_assert(res.have_linux);
	cr_assert_str_eq(res.linux_info.release, "6.1.0-57-amd64");
	cr_assert_str_eq(res.linux_info.cmdline, "console=ttyS0 pti=on");
	cr_assert_str_eq(res.linux_info.meltdown, "Mitigation: PTI");
	cr_assert_str_eq(res.linux_info.clocksource, "tsc");
	cr_assert_str_eq(res.linux_info.vsyscall, "xonly");
	cr_assert_str_eq(res.linux_info.ktext, "ffffffff81000000");
	cr_assert_str_eq(scan.console,
			 "[    0.000000] Linux version 6.1.0\ngetpid iterations=2000\n");
}

Test(frame_decode, text_frame_of_the_longest_len)
{
	static char big[EL_FRAME_TEXT_MAX];

	memset(big, 'x', sizeof(big));
	put_text_frame(EL_FRAME_KIND_KSYMS, big, sizeof(big));
	put_exit(0);
	decode();
	cr_assert_not(scan.bad, "%s", scan.err);
	cr_assert_eq(scan.ksyms_len, EL_FRAME_TEXT_MAX);
	cr_assert_eq(scan.ksyms[EL_FRAME_TEXT_MAX], '\0');
	cr_assert_null(scan.info);
	cr_assert_not(res.have_linux);
}

Test(frame_decode, text_frame_len_bounds)
{
	char line[96];

	snprintf(line, sizeof(line), "\n" EL_FRAME_TAG "KSYMS %u 00 00000000\n",
		 EL_FRAME_TEXT_MAX + 1);
	put_text(line);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "EL_FRAME_TEXT_MAX"), "%s", scan.err);
	frame_scan_free(&scan);
	reset();
	put_text("\n" EL_FRAME_TAG "INFO 0  00000000\n");
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "1..4096 bytes"), "%s", scan.err);
}

Test(frame_decode, text_frame_with_nul_refused)
{
	put_text_frame(EL_FRAME_KIND_KSYMS, "ab\0cd", 5);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "NUL byte (payload byte 2)"), "%s", scan.err);
	cr_assert_eq(scan.ksyms_len, 0);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
}

Test(frame_decode, info_after_boot_refused)
{
	put_report(EL_REPORT_BOOT);
	put_info("release=6.1\n");
	put_exit(0);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "INFO frame after a report"), "%s", scan.err);
	cr_assert_not(res.have_linux);
}

Test(frame_decode, info_total_bounded)
{
	static char chunk[EL_FRAME_TEXT_MAX / 2 + 2]; /* 2049 bytes of text */

	memset(chunk, 'a', sizeof(chunk) - 1);
	put_info(chunk);
	put_info(chunk); /* one byte over FRAME_INFO_MAX in all */
	put_exit(0);
	decode();
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "INFO frames carry more than 4096 bytes"), "%s", scan.err);
	cr_assert_eq(scan.info_len, sizeof(chunk) - 1, "the first frame is kept");
}

Test(frame_decode, ksyms_total_bounded)
{
	/* FRAME_KSYMS_MAX / EL_FRAME_TEXT_MAX frames fill it; one more is refused. */
	static char big[EL_FRAME_TEXT_MAX];
	size_t frames = FRAME_KSYMS_MAX / EL_FRAME_TEXT_MAX + 1, line_len;
	char *stream, *line;

	memset(big, 'k', sizeof(big));
	put_text_frame(EL_FRAME_KIND_KSYMS, big, sizeof(big));
	line_len = text_len;
	line = malloc(line_len);
	stream = malloc(line_len * frames);
	cr_assert(line && stream);
	memcpy(line, text, line_len);
	for (size_t i = 0; i < frames; i++)
		memcpy(stream + i * line_len, line, line_len);
	cr_assert_eq(frame_decode(stream, line_len * frames, &scan), 0);
	cr_assert(scan.bad);
	cr_assert(strstr(scan.err, "FRAME_KSYMS_MAX"), "%s", scan.err);
	cr_assert_eq(scan.ksyms_len, FRAME_KSYMS_MAX);
	cr_assert_eq(scan.count[FRAME_KSYMS], frames - 1);
	free(line);
	free(stream);
}

Test(frame_decode, malformed_info_is_bad_io)
{
	put_info("release=6.1\nhostname=x\n");
	put_report(EL_REPORT_BOOT);
	put_exit(0);
	decode();
	cr_assert_not(scan.bad, "the frame is well formed: %s", scan.err);
	cr_assert_eq(res.status, EL_RUN_GUEST_BAD_IO);
	cr_assert(strstr(res.detail, "INFO line 2: unknown key 'hostname'"), "%s", res.detail);
	cr_assert_not(res.have_linux);
}

/* ---- frame_linux_info: the INFO text alone ---- */

static struct el_linux_info li;
static char why[300];

static int info(const char *s)
{
	why[0] = '\0';
	return frame_linux_info(s, strlen(s), &li, why, sizeof(why));
}

Test(frame_linux_info, good_lines_and_absent_keys)
{
	cr_assert_eq(info("release=6.12.38+deb12-amd64\nvsyscall=emulate"), 0, "%s", why);
	cr_assert_str_eq(li.release, "6.12.38+deb12-amd64");
	cr_assert_str_eq(li.vsyscall, "emulate", "the last line may end the text");
	cr_assert_str_eq(li.cmdline, "");
	cr_assert_eq(info(""), 0, "nothing reported is not malformed");
	cr_assert_eq(info("ktext=\nmeltdown=Not affected\n"), 0, "%s", why);
	cr_assert_str_eq(li.ktext, "", "hidden kallsyms");
	cr_assert_eq(info("cmdline=\n"), 0);
	cr_assert_eq(info("release=a=b\n"), 0, "only the first '=' splits");
	cr_assert_str_eq(li.release, "a=b");
}

Test(frame_linux_info, malformed_lines_refused)
{
	cr_assert_eq(info("release=6.1\n\n"), -1);
	cr_assert(strstr(why, "line 2: empty"), "%s", why);
	cr_assert_eq(info("release 6.1\n"), -1);
	cr_assert(strstr(why, "no '='"), "%s", why);
	cr_assert_eq(info("=6.1\n"), -1);
	cr_assert(strstr(why, "unknown key ''"), "%s", why);
	cr_assert_eq(info("Release=6.1\n"), -1);
	cr_assert(strstr(why, "unknown key 'Release'"), "%s", why);
	cr_assert_eq(info("release=6.1\nrelease=6.2\n"), -1);
	cr_assert(strstr(why, "line 2: key 'release' given twice"), "%s", why);
	cr_assert_eq(info("cmdline=a\tb\n"), -1);
	cr_assert(strstr(why, "control byte 0x09"), "%s", why);
	cr_assert_eq(info("release=6.1\r\n"), -1);
	cr_assert(strstr(why, "control byte 0x0d"), "%s", why);
}

Test(frame_linux_info, oversize_values_refused)
{
	char buf[5000];

	snprintf(buf, sizeof(buf), "release=%0128d\n", 0);
	cr_assert_eq(info(buf), -1);
	cr_assert(strstr(why, "release is 128 bytes, longer than the 127 kept"), "%s", why);
	snprintf(buf, sizeof(buf), "release=%0127d\n", 0);
	cr_assert_eq(info(buf), 0, "%s", why);
	snprintf(buf, sizeof(buf), "vsyscall=%016d\n", 0);
	cr_assert_eq(info(buf), -1);
	cr_assert(strstr(why, "longer than the 15 kept"), "%s", why);
	memset(buf, 'c', sizeof(buf));
	memcpy(buf, "cmdline=", 8);
	buf[8 + 4096] = '\0';
	cr_assert_eq(info(buf), -1);
	cr_assert(strstr(why, "cmdline is 4096 bytes"), "%s", why);
}

Test(frame_linux_info, values_checked)
{
	cr_assert_eq(info("vsyscall=native\n"), -1);
	cr_assert(strstr(why, "none of none, xonly, emulate"), "%s", why);
	cr_assert_eq(info("vsyscall=none\n"), 0);
	cr_assert_eq(info("ktext=ffffffffc0000000\n"), 0);
	cr_assert_eq(info("ktext=0xffffffff81000000\n"), -1);
	cr_assert(strstr(why, "longer than a 64-bit address"), "%s", why);
	cr_assert_eq(info("ktext=ffffffff8100000g\n"), -1);
	cr_assert(strstr(why, "not lower-case hex"), "%s", why);
}

/* ---- frame_split: the same frames and console from a stream in chunks ---- */

struct sink {
	char *buf;
	size_t len;
};

static void sink_put(void *ctx, const char *p, size_t n)
{
	struct sink *k = ctx;

	k->buf = realloc(k->buf, k->len + n + 1);
	cr_assert_not_null(k->buf);
	memcpy(k->buf + k->len, p, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* A stream of console pieces (line ends, "\r\n", tag prefixes, bytes) and frames. */
static void random_stream(void)
{
	static const char *const pieces[] = {
		"\n", "\r\n", "\r", "abc", "@entrylab-frame", "@entrylab-frame-v1", " x\n",
		"\n\n", "[    0.1] Linux\n", "\xff\x00z", EL_FRAME_TAG "BOGUS 1 00 00000000\n",
	};

	text_len = 0;
	for (unsigned i = 0, n = rnd() % 12; i < n; i++) {
		switch (rnd() % 4) {
		case 0: put_info("release=6.1\n"); break;
		case 1:
			put_text_frame(EL_FRAME_KIND_KSYMS, "ffffffff81000000 T _text\n", 25);
			break;
		case 2: put_report(i & 1 ? EL_REPORT_RUN : EL_REPORT_BOOT); break;
		default: {
			const char *s = pieces[rnd() % EL_ARRAY_SIZE(pieces)];
			size_t len = strcmp(s, "\xff\x00z") ? strlen(s) : 3;

			memcpy(text + text_len, s, len);
			text_len += len;
		}
		}
	}
	if (rnd() % 2)
		put_exit(rnd() % 3);
	if (rnd() % 4 == 0 && text_len > 3)
		text_len -= rnd() % 3; /* cut the end */
}

Test(frame_split, chunked_stream_splits_as_frame_decode_reads_it)
{
	rnd_state = 1;
	for (unsigned round = 0; round < 3000; round++) {
		struct frame_scan whole, parts;
		struct frame_split fs;
		struct sink con = {0};
		size_t pos = 0;

		random_stream();
		cr_assert_eq(frame_decode(text, text_len, &whole), 0);
		frame_split_init(&fs, sink_put, &con);
		while (pos < text_len) {
			size_t n = 1 + rnd() % (round % 2 ? 3 : 300);

			if (n > text_len - pos)
				n = text_len - pos;
			frame_split_put(&fs, text + pos, n);
			pos += n;
		}
		frame_split_finish(&fs);
		cr_assert_not(fs.overflow);
		cr_assert_eq(frame_decode(fs.frames, fs.frames_len, &parts), 0);
		cr_assert_eq(parts.console_len, 0, "round %u: no console in the frames", round);
		cr_assert_eq(con.len, whole.console_len, "round %u", round);
		cr_assert(!memcmp(con.buf ? con.buf : "", whole.console, con.len), "round %u",
			  round);
		cr_assert_eq(parts.bad, whole.bad, "round %u: %s / %s", round, parts.err,
			     whole.err);
		cr_assert_eq(parts.nr_frames, whole.nr_frames, "round %u", round);
		cr_assert_eq(parts.nr_reports, whole.nr_reports, "round %u", round);
		cr_assert_eq(parts.exit_value, whole.exit_value, "round %u", round);
		cr_assert_eq(parts.info_len, whole.info_len, "round %u", round);
		cr_assert_eq(parts.ksyms_len, whole.ksyms_len, "round %u", round);
		for (unsigned k = 0; k < FRAME_KINDS; k++)
			cr_assert_eq(parts.count[k], whole.count[k], "round %u", round);
		frame_scan_free(&whole);
		frame_scan_free(&parts);
		frame_split_free(&fs);
		free(con.buf);
	}
}

Test(frame_split, frames_beyond_the_bound_are_counted_not_kept)
{
	static char big[EL_FRAME_TEXT_MAX];
	struct frame_split fs;
	struct sink con = {0};
	size_t line, fed = 0, lines = 0;

	memset(big, 'k', sizeof(big));
	put_text_frame(EL_FRAME_KIND_KSYMS, big, sizeof(big));
	line = text_len;
	frame_split_init(&fs, sink_put, &con);
	while (fed <= FRAME_SPLIT_MAX + 2 * line) {
		frame_split_put(&fs, text, line);
		fed += line;
		lines++;
	}
	frame_split_finish(&fs);
	cr_assert(fs.overflow);
	cr_assert_not(fs.oom);
	cr_assert_lt(fs.frames_len, FRAME_SPLIT_MAX);
	/* Every byte but the newline before each frame, which is the frame's and dropped. */
	cr_assert_eq(fs.frames_len + fs.frames_dropped, fed - lines);
	cr_assert_eq(con.len, 0);
	frame_split_free(&fs);
}
