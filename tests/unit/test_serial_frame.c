/*
 * The guest's framed-line encoder (guest-kernel/lib/serial_frame.c): the
 * exact line include/entrylab/serial_frame.h specifies, CRC-32 as zlib's,
 * and refusals instead of cut lines.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/abi.h"
#include "entrylab/serial_frame.h"
#include "guest-kernel/lib/serial_frame.h"

Test(serial_frame, crc32_is_ieee)
{
	/* The standard check value of CRC-32/ISO-HDLC, and zlib's crc32 of 4 zero bytes. */
	static const uint8_t zero[4];

	cr_assert_eq(serial_frame_crc32("123456789", 9), 0xcbf43926u);
	cr_assert_eq(serial_frame_crc32("", 0), 0u);
	cr_assert_eq(serial_frame_crc32(zero, 4), 0x2144df1cu);
}

Test(serial_frame, exit_line_is_exact)
{
	static const char want[] = "\n@entrylab-frame-v1 EXIT 4 2a010000 ";
	uint8_t le[4] = {0x2a, 0x01, 0, 0}; /* 0x12a, little endian */
	char line[EL_FRAME_LINE_MAX], crc[16];
	size_t n = serial_frame_format(line, sizeof(line), EL_FRAME_KIND_EXIT, le, 4);

	snprintf(crc, sizeof(crc), "%08x\n", serial_frame_crc32(le, 4));
	cr_assert_eq(n, strlen(want) + 9);
	cr_assert(!memcmp(line, want, strlen(want)), "got %.*s", (int)n, line);
	cr_assert(!memcmp(line + strlen(want), crc, 9));
}

Test(serial_frame, report_fits_the_line_max)
{
	struct el_report r;
	char line[EL_FRAME_LINE_MAX];
	size_t n;

	memset(&r, 0xa5, sizeof(r));
	n = serial_frame_format(line, sizeof(line), EL_FRAME_KIND_BOOT, &r, sizeof(r));
	cr_assert_gt(n, 2 * sizeof(r));
	cr_assert_eq(line[n - 1], '\n');
	cr_assert(!memcmp(line, "\n" EL_FRAME_TAG "BOOT 624 a5a5", 30));
	/* One byte short of the line: refused, never cut. */
	cr_assert_eq(serial_frame_format(line, n - 1, EL_FRAME_KIND_BOOT, &r, sizeof(r)), 0);
}

Test(serial_frame, oversized_payload_is_refused)
{
	static uint8_t big[EL_FRAME_TEXT_MAX + 1];
	static char line[EL_FRAME_LINE_MAX * 2];

	cr_assert_eq(serial_frame_format(line, sizeof(line), EL_FRAME_KIND_KSYMS, big, sizeof(big)),
		     0);
}

/* The longest payload, a text frame of /init for Linux, fits the longest line. */
Test(serial_frame, text_frame_fits_the_line_max)
{
	static uint8_t text[EL_FRAME_TEXT_MAX];
	static char line[EL_FRAME_LINE_MAX];
	size_t n;

	memset(text, 'a', sizeof(text));
	n = serial_frame_format(line, sizeof(line), EL_FRAME_KIND_KSYMS, text, sizeof(text));
	cr_assert_gt(n, 2 * sizeof(text));
	cr_expect(!memcmp(line, "\n" EL_FRAME_TAG "KSYMS 4096 6161", 35));
	cr_expect_eq(line[n - 1], '\n');
}
