/* EL_LINUX_CONF, parsed strictly: whatever /init does not understand it refuses. */
#include "array_size.h"
#include "conf.h"

#include <stdio.h>
#include <string.h>

#include "hex_digit.h"

#define CFG_HEX_MAX 16 /* digits of a uint64_t */

struct conf_line {
	unsigned no;          /* 1-based */
	const char *key, *value;
	size_t keylen, valuelen;
};

static int bad(char *err, size_t errlen, const struct conf_line *l, const char *why)
{
	int keylen = (int)(l->keylen > 32 ? 32 : l->keylen);

	snprintf(err, errlen, "conf line %u ('%.*s'): %s", l->no, keylen, l->key, why);
	return -1;
}

/* "0x" and 1..16 hex digits, exactly s[0..n). */
static int parse_cfg(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n < 3 || n > 2 + CFG_HEX_MAX || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (size_t i = 2; i < n; i++) {
		int d = el_hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

static int conf_events(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen)
{
	const char *p = l->value, *end = l->value + l->valuelen;

	if (!l->valuelen)
		return bad(err, errlen, l, "no events: leave the key out instead");
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		uint64_t cfg;

		if (c->nr_events == EL_MAX_COUNTERS)
			return bad(err, errlen, l, "more than EL_MAX_COUNTERS (8) events");
		if (parse_cfg(p, (size_t)(stop - p), &cfg))
			return bad(err, errlen, l, "an event is not 0x and 1-16 hex digits "
					   "(events=CFG[,CFG]...)");
		if (cfg & ~EL_EVSEL_ALLOWED)
			return bad(err, errlen, l, "an event sets bits outside EL_EVSEL_ALLOWED "
					   "(include/entrylab/abi.h)");
		c->events[c->nr_events++] = cfg;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static int conf_ksyms(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen)
{
	if (l->valuelen != 1 || (l->value[0] != '0' && l->value[0] != '1'))
		return bad(err, errlen, l, "ksyms takes 0 or 1");
	c->ksyms = l->value[0] == '1';
	return 0;
}

/* region=marked|whole (el_region_scope_names); "none" is what a guest reports, never asked. */
static int conf_region(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen)
{
	for (uint32_t s = EL_REGION_SCOPE_MARKED; s < EL_REGION_SCOPE_COUNT; s++) {
		if (strlen(el_region_scope_names[s]) == l->valuelen &&
		    !memcmp(el_region_scope_names[s], l->value, l->valuelen)) {
			c->region = s;
			return 0;
		}
	}
	return bad(err, errlen, l, "region takes marked or whole");
}

/* faults=0|1: whether a whole region counts page faults by perf's software event (default 1). */
static int conf_faults(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen)
{
	if (l->valuelen != 1 || (l->value[0] != '0' && l->value[0] != '1'))
		return bad(err, errlen, l, "faults takes 0 or 1");
	c->no_faults = l->value[0] == '0';
	return 0;
}

/* argv0=NAME: what the program sees as argv[0] (--exec FILE's name, or the bench's). */
static int conf_argv0(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen)
{
	if (!l->valuelen || l->valuelen >= sizeof(c->argv0) || memchr(l->value, '\0', l->valuelen))
		return bad(err, errlen, l, "argv0 takes 1 to 127 bytes");
	memcpy(c->argv0, l->value, l->valuelen);
	c->argv0[l->valuelen] = '\0';
	return 0;
}

static const struct {
	const char *key;
	int (*apply)(const struct conf_line *l, struct linit_conf *c, char *err, size_t errlen);
} conf_keys[] = {
	{"events", conf_events},
	{"ksyms", conf_ksyms},
	{"region", conf_region},
	{"faults", conf_faults},
	{"argv0", conf_argv0},
};

#define NR_KEYS EL_ARRAY_SIZE(conf_keys)

static int conf_line(struct conf_line *l, unsigned *seen, struct linit_conf *c, char *err,
		     size_t errlen)
{
	const char *eq = memchr(l->key, '=', l->keylen);

	if (!eq)
		return bad(err, errlen, l, "not KEY=VALUE");
	l->value = eq + 1;
	l->valuelen = l->keylen - (size_t)(l->value - l->key);
	l->keylen = (size_t)(eq - l->key);
	for (unsigned k = 0; k < NR_KEYS; k++) {
		if (strlen(conf_keys[k].key) != l->keylen ||
		    memcmp(conf_keys[k].key, l->key, l->keylen))
			continue;
		if (*seen & (1u << k))
			return bad(err, errlen, l, "the key comes twice");
		*seen |= 1u << k;
		return conf_keys[k].apply(l, c, err, errlen);
	}
	return bad(err, errlen, l, "unknown key (known: events, ksyms, region, faults, argv0); this /init is "
			   "older than the host that wrote it: rebuild entrylab");
}

int linit_conf_parse(const char *text, size_t len, struct linit_conf *c, char *err,
		     size_t errlen)
{
	const char *p = text, *end = text + len;
	struct conf_line l = {0};
	unsigned seen = 0;

	memset(c, 0, sizeof(*c));
	c->region = EL_REGION_SCOPE_MARKED;
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "conf holds a NUL byte at %zu: not a text file",
			 (size_t)((const char *)memchr(text, '\0', len) - text));
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;

		l.no++;
		l.key = p;
		l.keylen = (size_t)(stop - p);
		if (l.keylen && conf_line(&l, &seen, c, err, errlen))
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}
