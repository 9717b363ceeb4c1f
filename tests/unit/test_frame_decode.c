/*
 * The host's COM1 frame decoder (harness/bochs/frame_decode.c) and the
 * frames' result (frame_result.c), against lines made by the guest's own
 * encoder (guest-kernel/lib/serial_frame.c): good frames, console text kept
 * apart, and every malformed stream refused with its problem named.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "frame.h"
#include "guest-kernel/lib/serial_frame.h"

static char text[16384];
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
	put_exit(EL_EXIT_PANIC + 14);
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
