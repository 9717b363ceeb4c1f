/*
 * The headline of an experiment (key `headline`): the columns of the
 * seed's table, each a metric and the unit the seed prints it in,
 * "iterations/s as lseeks/s, ns/page_faults as ns/fault".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report_save.h"

/* Trims blanks at both ends of s[0..*len), returns the new start. */
static const char *trim(const char *s, size_t *len)
{
	while (*len && isspace((unsigned char)*s)) {
		s++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)s[*len - 1]))
		(*len)--;
	return s;
}

/* The word "as" that separates metric and unit (the unit may be missing), NULL if none. */
static const char *find_as(const char *s, size_t len)
{
	for (size_t i = 1; i + 1 < len; i++)
		if (isspace((unsigned char)s[i - 1]) && s[i] == 'a' && s[i + 1] == 's' &&
		    (i + 2 == len || isspace((unsigned char)s[i + 2])))
			return s + i;
	return NULL;
}

static int item_parse(const char *s0, size_t len, const char *const *events, size_t n,
		      struct report_headline *h, char *err, size_t errlen)
{
	const char *as = find_as(s0, len), *unit = NULL, *s;
	size_t mlen = as ? (size_t)(as - s0) : len, ulen = 0;
	char text[sizeof(h->m.text)];

	s = trim(s0, &mlen);
	if (as) {
		ulen = (size_t)(s0 + len - (as + 2));
		unit = trim(as + 2, &ulen);
		if (!ulen || ulen >= sizeof(h->unit)) {
			snprintf(err, errlen,
				 "'%.*s': give a unit of 1 to %zu characters after "
				 "'as'",
				 (int)len, s0, sizeof(h->unit) - 1);
			return -1;
		}
	}
	if (!mlen || mlen >= sizeof(text)) {
		snprintf(err, errlen,
			 "an empty or too long metric in the list; write METRIC [as "
			 "UNIT], ... e.g. iterations/s as lseeks/s");
		return -1;
	}
	memcpy(text, s, mlen);
	text[mlen] = '\0';
	if (metric_parse(text, events, n, &h->m, err, errlen))
		return -1;
	if (unit) {
		memcpy(h->unit, unit, ulen);
		h->unit[ulen] = '\0';
	} else {
		snprintf(h->unit, sizeof(h->unit), "%s", h->m.label);
	}
	return 0;
}

int report_headline_parse(const char *text, const char *const *events, size_t n,
			  struct report_headline *out, unsigned max, char *err, size_t errlen)
{
	const char *p = text;
	unsigned k = 0;

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (k == max) {
			snprintf(err, errlen, "more than %u headline metrics; keep the seed's few",
				 max);
			return -1;
		}
		if (item_parse(p, len, events, n, &out[k], err, errlen))
			return -1;
		k++;
		p += len + (comma ? 1 : 0);
	}
	if (!k) {
		snprintf(err, errlen,
			 "no metric; write METRIC [as UNIT], ... e.g. iterations/s "
			 "as lseeks/s, or drop the key");
		return -1;
	}
	return (int)k;
}
