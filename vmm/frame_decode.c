/*
 * Framed lines out of a captured COM1 stream (frame.h): the console text
 * and the frames apart, each frame's shape checked field by field; the
 * text frames (INFO, KSYMS) gathered into bounded buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "frame.h"

#define TAG_LEN (sizeof(EL_FRAME_TAG) - 1)

static const struct {
	const char *name;
	size_t len;   /* the payload bytes the kind carries; 0: text, 1..EL_FRAME_TEXT_MAX */
	size_t total; /* text: the most all frames of the kind carry together */
} frame_kinds[FRAME_KINDS] = {
	[FRAME_BOOT] = {EL_FRAME_KIND_BOOT, sizeof(struct el_report), 0},
	[FRAME_RUN] = {EL_FRAME_KIND_RUN, sizeof(struct el_report), 0},
	[FRAME_EXIT] = {EL_FRAME_KIND_EXIT, sizeof(uint32_t), 0},
	[FRAME_INFO] = {EL_FRAME_KIND_INFO, 0, FRAME_INFO_MAX},
	[FRAME_KSYMS] = {EL_FRAME_KIND_KSYMS, 0, FRAME_KSYMS_MAX},
};

static bool frame_is_text(enum frame_kind k)
{
	return frame_kinds[k].len == 0;
}

uint32_t frame_crc(const void *buf, size_t len)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf, (uInt)len);
}

/* One frame line being read: where it is, and the first problem with it. */
struct frame_line {
	const char *p, *end; /* after the tag; the end of the line (no '\r', no '\n') */
	size_t offset;       /* of the line in the stream */
	unsigned index;      /* 1-based, among the tag lines */
	struct frame_scan *s;
};

static int frame_bad(struct frame_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int frame_bad(struct frame_line *l, const char *fmt, ...)
{
	int n = snprintf(l->s->err, sizeof(l->s->err), "COM1 frame %u (byte %zu): ", l->index,
			 l->offset);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(l->s->err))
		vsnprintf(l->s->err + n, sizeof(l->s->err) - (size_t)n, fmt, ap);
	va_end(ap);
	l->s->bad = true;
	return -1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The field up to the next space (or the line's end): its start and length. */
static size_t field(struct frame_line *l, const char **start)
{
	const char *q = l->p;

	while (q < l->end && *q != ' ')
		q++;
	*start = l->p;
	return (size_t)(q - l->p);
}

/* Past the field and the one space after it; -1 if there is no space. */
static int field_next(struct frame_line *l, size_t n, const char *what)
{
	l->p += n;
	if (l->p >= l->end || *l->p != ' ')
		return frame_bad(l, "the line ends before %s", what);
	l->p++;
	return 0;
}

static int parse_kind(struct frame_line *l, enum frame_kind *kind)
{
	const char *f;
	size_t n = field(l, &f);

	for (unsigned k = 0; k < FRAME_KINDS; k++) {
		if (strlen(frame_kinds[k].name) == n && !memcmp(f, frame_kinds[k].name, n)) {
			*kind = (enum frame_kind)k;
			return field_next(l, n, "LEN");
		}
	}
	return frame_bad(l, "kind '%.*s' is none of BOOT, RUN, EXIT, INFO, KSYMS",
			 (int)(n > 16 ? 16 : n), f);
}

static int parse_len(struct frame_line *l, enum frame_kind kind, size_t *len)
{
	const char *f;
	size_t n = field(l, &f), v = 0;

	if (n == 0 || n > 6 || (n > 1 && f[0] == '0'))
		return frame_bad(l, "LEN '%.*s' is not a decimal byte count", (int)(n > 16 ? 16 : n),
				 f);
	for (size_t i = 0; i < n; i++) {
		if (f[i] < '0' || f[i] > '9')
			return frame_bad(l, "LEN '%.*s' is not a decimal byte count",
					 (int)(n > 16 ? 16 : n), f);
		v = v * 10 + (size_t)(f[i] - '0');
	}
	if (frame_is_text(kind)) {
		if (v == 0 || v > EL_FRAME_TEXT_MAX)
			return frame_bad(l, "a %s frame carries 1..%u bytes (EL_FRAME_TEXT_MAX), "
					 "not LEN %zu", frame_kinds[kind].name, EL_FRAME_TEXT_MAX,
					 v);
	} else if (v > EL_FRAME_PAYLOAD_MAX) {
		return frame_bad(l, "LEN %zu exceeds EL_FRAME_PAYLOAD_MAX (%u)", v,
				 EL_FRAME_PAYLOAD_MAX);
	} else if (v != frame_kinds[kind].len)
		return frame_bad(l, "a %s frame carries %zu bytes, not LEN %zu",
				 frame_kinds[kind].name, frame_kinds[kind].len, v);
	*len = v;
	return field_next(l, n, "HEX");
}

static int parse_hex(struct frame_line *l, size_t len, unsigned char *out)
{
	const char *f;
	size_t n = field(l, &f);

	if (n != 2 * len)
		return frame_bad(l, "HEX has %zu digits, LEN %zu needs %zu", n, len, 2 * len);
	for (size_t i = 0; i < len; i++) {
		int hi = hex_digit(f[2 * i]), lo = hex_digit(f[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return frame_bad(l, "HEX digit %zu ('%c%c') is not lower-case hex", 2 * i,
					 f[2 * i], f[2 * i + 1]);
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return field_next(l, n, "CRC");
}

static int parse_crc(struct frame_line *l, const unsigned char *payload, size_t len)
{
	const char *f;
	size_t n = field(l, &f);
	uint32_t want = 0, got = frame_crc(payload, len);

	if (n != 8 || l->p + n != l->end)
		return frame_bad(l, "CRC is not eight lower-case hex digits ending the line");
	for (size_t i = 0; i < 8; i++) {
		int d = hex_digit(f[i]);

		if (d < 0)
			return frame_bad(l, "CRC '%.8s' is not lower-case hex", f);
		want = want << 4 | (uint32_t)d;
	}
	if (want != got)
		return frame_bad(l, "CRC %08x, but the payload's CRC-32 is %08x (bytes lost or "
				 "changed on COM1)", want, got);
	return 0;
}

/* A text payload: no NUL (the buffers are C strings and the text is lines). */
static int parse_text(struct frame_line *l, enum frame_kind kind, const unsigned char *payload,
		      size_t len)
{
	const unsigned char *nul = frame_is_text(kind) ? memchr(payload, 0, len) : NULL;

	if (nul)
		return frame_bad(l, "a %s frame's text holds a NUL byte (payload byte %zu)",
				 frame_kinds[kind].name, (size_t)(nul - payload));
	return 0;
}

/*
 * What a frame of this kind may follow: nothing after EXIT, at most
 * FRAME_REPORTS_MAX reports, INFO before any report, a text kind within its
 * total.
 */
static int frame_order(struct frame_line *l, enum frame_kind kind, size_t len)
{
	struct frame_scan *s = l->s;

	if (s->count[FRAME_EXIT])
		return frame_bad(l, "%s frame after the EXIT frame: EXIT is the last",
				 frame_kinds[kind].name);
	if ((kind == FRAME_BOOT || kind == FRAME_RUN) && s->nr_reports == FRAME_REPORTS_MAX)
		return frame_bad(l, "more than %u report frames", FRAME_REPORTS_MAX);
	if (kind == FRAME_INFO && s->nr_reports)
		return frame_bad(l, "INFO frame after a report: /init sends INFO before BOOT");
	if (kind == FRAME_INFO && s->info_len + len > FRAME_INFO_MAX)
		return frame_bad(l, "INFO frames carry more than %u bytes in all", FRAME_INFO_MAX);
	if (kind == FRAME_KSYMS && s->ksyms_len + len > FRAME_KSYMS_MAX)
		return frame_bad(l, "KSYMS frames carry more than %u bytes in all (FRAME_KSYMS_MAX)",
				 FRAME_KSYMS_MAX);
	return 0;
}

/* Appends a text payload to its buffer, NUL-terminated; -1 out of memory. */
static int text_append(char **buf, size_t *used, size_t *cap, const unsigned char *p, size_t n)
{
	if (*used + n + 1 > *cap) {
		size_t c = *cap ? *cap : 4096;
		char *b;

		while (c < *used + n + 1)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *used, p, n);
	*used += n;
	(*buf)[*used] = '\0';
	return 0;
}

static int frame_keep(struct frame_scan *s, enum frame_kind kind, const unsigned char *payload,
		      size_t len)
{
	if (kind == FRAME_INFO || kind == FRAME_KSYMS) {
		bool info = kind == FRAME_INFO;

		if (text_append(info ? &s->info : &s->ksyms, info ? &s->info_len : &s->ksyms_len,
				info ? &s->info_cap : &s->ksyms_cap, payload, len)) {
			snprintf(s->err, sizeof(s->err), "out of memory for %zu bytes of %s frames",
				 (info ? s->info_len : s->ksyms_len) + len, frame_kinds[kind].name);
			return -1;
		}
	}
	s->nr_frames++;
	s->count[kind]++;
	if (kind == FRAME_INFO || kind == FRAME_KSYMS)
		return 0;
	if (kind == FRAME_EXIT) {
		s->exit_value = (uint32_t)payload[0] | (uint32_t)payload[1] << 8 |
				(uint32_t)payload[2] << 16 | (uint32_t)payload[3] << 24;
		return 0;
	}
	s->reports[s->nr_reports].kind = kind;
	memcpy(&s->reports[s->nr_reports].r, payload, sizeof(struct el_report));
	s->nr_reports++;
	return 0;
}

/* 0, or -1 out of memory (a malformed frame is s->bad, not an error). */
static int frame_parse(struct frame_line *l)
{
	unsigned char payload[EL_FRAME_TEXT_MAX];
	enum frame_kind kind = FRAME_EXIT;
	size_t len = 0;

	if ((size_t)(l->end - l->p) + TAG_LEN > EL_FRAME_LINE_MAX) {
		frame_bad(l, "the line is %zu bytes, longer than any frame (%zu)",
			  (size_t)(l->end - l->p) + TAG_LEN, (size_t)EL_FRAME_LINE_MAX);
		return 0;
	}
	if (parse_kind(l, &kind) || parse_len(l, kind, &len) || parse_hex(l, len, payload) ||
	    parse_crc(l, payload, len) || parse_text(l, kind, payload, len) ||
	    frame_order(l, kind, len))
		return 0;
	return frame_keep(l->s, kind, payload, len);
}

/*
 * The newline the guest writes before each tag is the frame's, not the
 * console's: the "\n" (or "\r\n") that ends the console line right before
 * the tag line.  A tag line right after another frame has none to take.
 */
static void console_unwind_newline(struct frame_scan *s, size_t line_len)
{
	if (!line_len || s->console[s->console_len - 1] != '\n')
		return;
	s->console_len--;
	if (line_len >= 2 && s->console[s->console_len - 1] == '\r')
		s->console_len--;
}

/* 0, or -1 out of memory. */
static int frame_line_at(struct frame_scan *s, const char *text, size_t start, size_t end,
			 bool cut, size_t console_line, unsigned index)
{
	struct frame_line l = {.p = text + start + TAG_LEN, .end = text + end, .offset = start,
			       .index = index, .s = s};

	console_unwind_newline(s, console_line);
	if (s->bad)
		return 0; /* after a bad frame no frame is believed */
	if (cut) {
		frame_bad(&l, "cut: the stream ends inside the frame (%zu bytes, no newline); "
			  "the guest stopped or COM1 lost its end", end - start);
		return 0;
	}
	if (l.end > l.p && l.end[-1] == '\r')
		l.end--;
	return frame_parse(&l);
}

int frame_decode(const char *text, size_t len, struct frame_scan *s)
{
	size_t pos = 0, console_end = 0, console_line = 0; /* the last console line: end, length */
	unsigned tags = 0;

	memset(s, 0, sizeof(*s));
	s->console = malloc(len + 1);
	if (!s->console) {
		snprintf(s->err, sizeof(s->err), "out of memory for a %zu-byte COM1 capture", len);
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len, next = nl ? end + 1 : len;

		if (end - pos >= TAG_LEN && !memcmp(text + pos, EL_FRAME_TAG, TAG_LEN)) {
			if (frame_line_at(s, text, pos, end, !nl, console_end == pos ? console_line : 0,
					  ++tags)) {
				frame_scan_free(s);
				return -1;
			}
		} else {
			memcpy(s->console + s->console_len, text + pos, next - pos);
			s->console_len += next - pos;
			console_end = next;
			console_line = next - pos;
		}
		pos = next;
	}
	s->console[s->console_len] = '\0';
	return 0;
}

void frame_scan_free(struct frame_scan *s)
{
	free(s->console);
	free(s->info);
	free(s->ksyms);
	s->console = s->info = s->ksyms = NULL;
	s->console_len = s->info_len = s->ksyms_len = 0;
	s->info_cap = s->ksyms_cap = 0;
}
