/*
 * Guest text for JSON and terminals (text_sanitize.h).  UTF-8 per RFC 3629,
 * table 3-7 of the Unicode standard: the second byte's range depends on the
 * lead byte, the others are 80..BF.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "array_size.h"
#include "text_sanitize.h"

/* Per lead byte: sequence length and the range of its second byte. */
struct utf8_lead {
	unsigned char lo, hi, len;
};

static struct utf8_lead utf8_lead(unsigned char c)
{
	static const struct {
		unsigned char first, last;
		struct utf8_lead lead;
	} leads[] = {
		{0xc2, 0xdf, {0x80, 0xbf, 2}},
		{0xe0, 0xe0, {0xa0, 0xbf, 3}}, /* no overlongs */
		{0xe1, 0xec, {0x80, 0xbf, 3}},
		{0xed, 0xed, {0x80, 0x9f, 3}}, /* no surrogates */
		{0xee, 0xef, {0x80, 0xbf, 3}},
		{0xf0, 0xf0, {0x90, 0xbf, 4}}, /* no overlongs */
		{0xf1, 0xf3, {0x80, 0xbf, 4}},
		{0xf4, 0xf4, {0x80, 0x8f, 4}}, /* nothing above U+10FFFF */
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(leads); i++)
		if (c >= leads[i].first && c <= leads[i].last)
			return leads[i].lead;
	return (struct utf8_lead){0, 0, 0};
}

/* Length of the well-formed sequence at s (0: ill-formed, *bad bytes to replace). */
static size_t utf8_valid(const unsigned char *s, size_t len, size_t *bad)
{
	struct utf8_lead l = utf8_lead(s[0]);
	size_t i;

	*bad = 1;
	if (!l.len)
		return 0;
	for (i = 1; i < l.len; i++) {
		unsigned char lo = i == 1 ? l.lo : 0x80, hi = i == 1 ? l.hi : 0xbf;

		if (i >= len || s[i] < lo || s[i] > hi) {
			*bad = i; /* the maximal subpart: lead and the continuations that fit */
			return 0;
		}
	}
	return l.len;
}

static char *put3(char *o, unsigned cp)
{
	*o++ = (char)(0xe0 | (cp >> 12));
	*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
	*o++ = (char)(0x80 | (cp & 0x3f));
	return o;
}

char *text_sanitize_utf8(const char *s, size_t len, size_t *out_len, uint64_t *replaced)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(3 * len + 1), *o = out;
	uint64_t n = 0;
	size_t i = 0, ok, bad;

	if (!out)
		return NULL;
	while (i < len) {
		unsigned char c = p[i];

		if (c == '\n' || c == '\t' || c == '\r' || (c >= 0x20 && c < 0x7f)) {
			*o++ = (char)c;
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			o = put3(o, c == 0x7f ? 0x2421 : 0x2400 + c);
			n++;
			i++;
		} else if ((ok = utf8_valid(p + i, len - i, &bad))) {
			for (size_t k = 0; k < ok; k++)
				*o++ = (char)p[i + k];
			i += ok;
		} else {
			o = put3(o, 0xfffd);
			n++;
			i += bad;
		}
	}
	*o = '\0';
	if (out_len)
		*out_len = (size_t)(o - out);
	if (replaced)
		*replaced = n;
	return out;
}

size_t text_escape_terminal(const char *s, size_t len, char *out, size_t outcap)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, i = 0, ok, bad;

	if (!outcap)
		return 0;
	while (i < len) {
		unsigned char c = p[i];

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))
			ok = 1;
		else if (c < 0x80 || c == 0xc2) /* C0, DEL and C1 (U+0080..U+009F) are escaped */
			ok = c == 0xc2 && len - i > 1 && p[i + 1] >= 0xa0 && p[i + 1] <= 0xbf ? 2
											      : 0;
		else
			ok = utf8_valid(p + i, len - i, &bad);
		if (o + (ok ? ok : 4) >= outcap)
			break;
		if (ok) {
			for (size_t k = 0; k < ok; k++)
				out[o++] = (char)p[i + k];
			i += ok;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
		i++;
	}
	out[o] = '\0';
	return o;
}
