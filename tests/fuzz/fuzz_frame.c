/*
 * Fuzz target: the COM1 frame decoder (vmm/frame_decode.c) and the frames'
 * result (frame_result.c) on any byte stream, as Bochs's COM1 file or a
 * Linux guest's COM1 may hold it, the same stream through the streaming
 * splitter (frame_split.c) in chunks sized by its first byte, and the INFO
 * parser (frame_linux.c) on the stream itself.  Properties: the console is never longer than the input, a
 * malformed frame comes with its problem named, any stream ends as a status
 * with a detail unless it is ok, the text frames' buffers stay within their
 * bounds, NUL-terminated and NUL-free, the splitter's console and frames
 * read exactly as the whole stream's, and the INFO parser either refuses
 * with a reason or fills every field NUL-terminated.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "fuzz.h"

static void text_check(const char *buf, size_t len, size_t max, const char *what)
{
	if (len > max)
		fuzz_fail(what);
	if (buf && (buf[len] != '\0' || memchr(buf, '\0', len)))
		fuzz_fail("a text frame buffer holds a NUL or is not terminated");
	if (!buf && len)
		fuzz_fail("a text frame length without its buffer");
}

struct sink {
	char *buf;
	size_t len;
};

static void sink_put(void *ctx, const char *p, size_t n)
{
	struct sink *k = ctx;

	memcpy(k->buf + k->len, p, n);
	k->len += n;
}

/* The stream in chunks through frame_split: the same console and frames as whole. */
static void split_check(const uint8_t *data, size_t size, const struct frame_scan *whole)
{
	struct sink con = {malloc(size + 1), 0};
	size_t chunk = size ? 1 + data[0] % 64 : 1;
	struct frame_split fs;
	struct frame_scan parts;

	if (!con.buf)
		abort();
	frame_split_init(&fs, sink_put, &con);
	for (size_t pos = 0; pos < size; pos += chunk)
		frame_split_put(&fs, (const char *)data + pos, size - pos < chunk ? size - pos : chunk);
	frame_split_finish(&fs);
	if (fs.overflow || frame_decode(fs.frames ? fs.frames : "", fs.frames_len, &parts))
		fuzz_fail("the splitter overflowed or its frames could not be decoded");
	if (con.len != whole->console_len || memcmp(con.buf, whole->console, con.len))
		fuzz_fail("the splitter's console differs from frame_decode's");
	if (parts.console_len || parts.bad != whole->bad || parts.nr_frames != whole->nr_frames ||
	    parts.exit_value != whole->exit_value || parts.info_len != whole->info_len ||
	    parts.ksyms_len != whole->ksyms_len)
		fuzz_fail("the splitter's frames differ from frame_decode's");
	frame_scan_free(&parts);
	frame_split_free(&fs);
	free(con.buf);
}

static void info_check(const uint8_t *data, size_t size)
{
	struct el_linux_info li;
	char err[300] = "";

	if (frame_linux_info((const char *)data, size, &li, err, sizeof(err))) {
		if (!err[0])
			fuzz_fail("INFO refused without a reason");
		return;
	}
	if (!memchr(li.release, 0, sizeof(li.release)) || !memchr(li.cmdline, 0, sizeof(li.cmdline)) ||
	    !memchr(li.meltdown, 0, sizeof(li.meltdown)) ||
	    !memchr(li.clocksource, 0, sizeof(li.clocksource)) ||
	    !memchr(li.vsyscall, 0, sizeof(li.vsyscall)) || !memchr(li.ktext, 0, sizeof(li.ktext)))
		fuzz_fail("an INFO field is not NUL-terminated");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_scan s;
	struct el_run_result *res = calloc(1, sizeof(*res));

	if (!res)
		abort();
	if (frame_decode((const char *)data, size, &s))
		fuzz_fail("frame_decode failed on memory for a small input");
	if (s.console_len > size || s.console[s.console_len] != '\0')
		fuzz_fail("the console is longer than the stream or not terminated");
	if (s.bad && !s.err[0])
		fuzz_fail("a bad frame without its problem named");
	if (frame_result(&s, res) != EL_RUN_OK && !res->detail[0])
		fuzz_fail("a run that did not end ok without a detail");
	if (s.bad && res->status == EL_RUN_OK)
		fuzz_fail("a malformed frame, yet the run is ok");
	text_check(s.info, s.info_len, FRAME_INFO_MAX, "INFO beyond FRAME_INFO_MAX");
	text_check(s.ksyms, s.ksyms_len, FRAME_KSYMS_MAX, "KSYMS beyond FRAME_KSYMS_MAX");
	if (res->have_linux && !s.count[FRAME_INFO])
		fuzz_fail("have_linux without an INFO frame");
	split_check(data, size, &s);
	info_check(data, size);
	frame_scan_free(&s);
	free(res);
	return 0;
}
