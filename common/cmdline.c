/*
 * Linux-style command-line parser, shared by the guest kernel (boot) and the
 * VMM (validating --append).  Pure C without library calls or kernel headers:
 * the same file builds freestanding and hosted.
 *
 * Syntax, as Linux's next_arg(): tokens separated by whitespace; a token is
 * `key`, or `key=value` split at the first '='.  Double quotes group
 * whitespace into a token: `init="/bin/a b"` or `"init=/bin/a b"`; the quote
 * opening the token or the value is removed, and so is one closing quote at
 * the end of the token.  An unterminated quote runs to the end of the line.
 * A knob given twice takes the last value.  A token with a problem leaves its
 * setting unchanged and is reported through the callback.
 * A standalone `--` ends the knobs: the rest of the line is init's argument
 * list (init_args, split by el_cmdline_next_arg), as Linux passes it to init.
 */
#include "array_size.h"
#include "cmdline.h"
#include "entrylab/abi.h"

/* Knobs that are not config items, handled by the table below. */
const char *const el_cmdline_other_knobs[] = {"init", "test.crash", "el.tsc_khz", "el.epoch_ns",
					       "el.events", "el.region", "el.argv0", 0};

static const char *const crash_values[] = {"none", "triple", "hang", "ud", "badport",
					     "sysenter", "icebp", "badidt", "mmio-exec",
					     "report-backwards", "report-unmarked",
					     "report-boot-twice", 0};

typedef enum el_cmdline_error other_knob_fn(const struct el_cmdline_token *t,
					   struct el_cmdline *out);

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Does s[0..n) equal the NUL-terminated lit? */
static int span_eq(const char *s, size_t n, const char *lit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lit[i] == '\0' || lit[i] != s[i])
			return 0;
	return lit[n] == '\0';
}

/* Index of s[0..n) in a NULL-terminated name list, or -1. */
static int name_index(const char *const *names, const char *s, size_t n)
{
	int i;

	for (i = 0; names[i]; i++)
		if (span_eq(s, n, names[i]))
			return i;
	return -1;
}

/* Splits off the token starting at or after p; returns where scanning continues. */
static const char *next_token(const char *p, struct el_cmdline_token *t)
{
	const char *start, *end, *eq = 0, *value_start = 0;
	int quoted, in_quote;

	while (is_space(*p))
		p++;
	t->raw = p;
	quoted = *p == '"';
	start = p + quoted;
	in_quote = quoted;
	for (end = start; *end && (in_quote || !is_space(*end)); end++) {
		if (!eq && *end == '=')
			eq = end;
		if (*end == '"')
			in_quote = !in_quote;
	}
	t->rawlen = (size_t)(end - p);
	t->open_quote = in_quote;
	if (eq) {
		value_start = eq + 1;
		if (*value_start == '"') {
			value_start++;
			quoted = 1;
		}
	}
	t->key = start;
	t->keylen = (size_t)((eq ? eq : end) - start);
	t->value = value_start;
	t->valuelen = 0;
	if (value_start) {
		const char *vend = end;

		if (quoted && vend > value_start && vend[-1] == '"')
			vend--;
		t->valuelen = (size_t)(vend - value_start);
	} else if (quoted && t->keylen && start[t->keylen - 1] == '"') {
		t->keylen--;
	}
	return end;
}

/* A non-empty string value into dst[0..size), NUL-terminated. */
static enum el_cmdline_error copy_value(const struct el_cmdline_token *t, char *dst, size_t size)
{
	size_t i;

	if (t->valuelen == 0)
		return EL_CMDLINE_BAD_VALUE;
	if (t->valuelen >= size)
		return EL_CMDLINE_TOO_LONG;
	for (i = 0; i < t->valuelen; i++)
		dst[i] = t->value[i];
	dst[i] = '\0';
	return 0;
}

static enum el_cmdline_error knob_init(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	return copy_value(t, out->init, sizeof(out->init));
}

/* el.argv0=NAME: init's argv[0] (the VMM: the --exec FILE as the user named it). */
static enum el_cmdline_error knob_argv0(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	return copy_value(t, out->argv0, sizeof(out->argv0));
}

static enum el_cmdline_error knob_test_crash(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	int v = name_index(crash_values, t->value, t->valuelen);

	if (v < 0)
		return EL_CMDLINE_BAD_VALUE;
	out->test_crash = (uint8_t)v;
	return 0;
}

/* A decimal uint64_t: digits only, no sign, no overflow. */
static enum el_cmdline_error parse_u64(const struct el_cmdline_token *t, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (t->valuelen == 0)
		return EL_CMDLINE_BAD_VALUE;
	for (i = 0; i < t->valuelen; i++) {
		unsigned d = (unsigned)(t->value[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return EL_CMDLINE_BAD_VALUE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static enum el_cmdline_error knob_tsc_khz(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	return parse_u64(t, &out->tsc_khz);
}

static enum el_cmdline_error knob_epoch_ns(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	return parse_u64(t, &out->epoch_ns);
}

/* "0x" and 1..16 hex digits; returns the characters used, 0 if none fit. */
static size_t parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	for (i = 2; i < n && i < 18; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned)((c | 0x20) - 'a' + 10);
		else
			break;
		v = v << 4 | d;
	}
	if (i == 2 || (i < n && s[i] != ','))
		return 0;
	*out = v;
	return i;
}

/* el.events=0xCFG[,0xCFG]...: all or nothing, at most EL_MAX_COUNTERS. */
static enum el_cmdline_error knob_events(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	uint64_t ev[EL_MAX_COUNTERS];
	size_t at = 0, used;
	unsigned n = 0, i;

	while (at < t->valuelen) {
		if (n == EL_MAX_COUNTERS)
			return EL_CMDLINE_TOO_LONG;
		used = parse_hex(t->value + at, t->valuelen - at, &ev[n]);
		if (!used)
			return EL_CMDLINE_BAD_VALUE;
		n++;
		at += used;
		if (at < t->valuelen && ++at == t->valuelen)
			return EL_CMDLINE_BAD_VALUE; /* a trailing comma */
	}
	if (n == 0)
		return EL_CMDLINE_BAD_VALUE;
	for (i = 0; i < n; i++)
		out->events[i] = ev[i];
	out->nr_events = (uint8_t)n;
	return 0;
}

/*
 * el.region=marked|whole, by el_region_scope_names (abi.h).  "none" is what
 * a report says when nothing was measured, never a scope to ask for.
 */
static enum el_cmdline_error knob_region(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	int v;

	for (v = EL_REGION_SCOPE_MARKED; v < EL_REGION_SCOPE_COUNT; v++)
		if (span_eq(t->value, t->valuelen, el_region_scope_names[v])) {
			out->region_scope = (uint8_t)v;
			return 0;
		}
	return EL_CMDLINE_BAD_VALUE;
}

/* In the order of el_cmdline_other_knobs[]; all of them take a value. */
static other_knob_fn *const other_knob_handlers[] = {knob_init, knob_test_crash, knob_tsc_khz,
						    knob_epoch_ns, knob_events, knob_region,
						    knob_argv0};

_Static_assert(EL_ARRAY_SIZE(other_knob_handlers) == EL_ARRAY_SIZE(el_cmdline_other_knobs) - 1,
	       "one handler per other knob");

static enum el_cmdline_error apply_config_knob(const struct el_knob_desc *k, const struct el_cmdline_token *t,
					       struct el_cmdline *out)
{
	int v;

	if (k->flag_value >= 0) {
		if (t->value)
			return EL_CMDLINE_UNEXPECTED_VALUE;
		v = k->flag_value;
	} else {
		if (!t->value)
			return EL_CMDLINE_MISSING_VALUE;
		v = name_index(el_config[k->item].values, t->value, t->valuelen);
		if (v < 0)
			return EL_CMDLINE_BAD_VALUE;
	}
	out->requested[k->item] = (uint8_t)v;
	out->given[k->item] = 1;
	return 0;
}

static enum el_cmdline_error apply_token(const struct el_cmdline_token *t, struct el_cmdline *out)
{
	size_t i;
	int other;

	for (i = 0; i < EL_KNOB_COUNT; i++)
		if (span_eq(t->key, t->keylen, el_knobs[i].name))
			return apply_config_knob(&el_knobs[i], t, out);
	other = name_index(el_cmdline_other_knobs, t->key, t->keylen);
	if (other < 0)
		return EL_CMDLINE_UNKNOWN_KNOB;
	if (!t->value)
		return EL_CMDLINE_MISSING_VALUE;
	return other_knob_handlers[other](t, out);
}

static void set_defaults(struct el_cmdline *out)
{
	size_t i;

	for (i = 0; i < EL_CFG_COUNT; i++) {
		out->requested[i] = el_config[i].def;
		out->given[i] = 0;
	}
	for (i = 0; i < sizeof(out->init); i++)
		out->init[i] = '\0';
	for (i = 0; i < sizeof(out->argv0); i++)
		out->argv0[i] = '\0';
	out->test_crash = EL_CRASH_NONE;
	out->tsc_khz = 0;
	out->epoch_ns = 0;
	for (i = 0; i < EL_MAX_COUNTERS; i++)
		out->events[i] = 0;
	out->nr_events = 0;
	out->region_scope = EL_REGION_SCOPE_MARKED;
	out->init_args = 0;
}

int el_cmdline_parse(const char *cmdline, struct el_cmdline *out, el_cmdline_error_fn *err,
		     void *ctx)
{
	const char *p = cmdline ? cmdline : "";
	int problems = 0;
	struct el_cmdline_token t;

	set_defaults(out);
	while (el_cmdline_split(&p, &t)) {
		enum el_cmdline_error e;

		if (el_cmdline_is_separator(&t)) {
			/* Linux: the rest of the line belongs to init. */
			while (is_space(*p))
				p++;
			out->init_args = p;
			break;
		}
		if (t.keylen == 0 && !t.value)
			continue; /* a lone '"' at the end: nothing to set */
		e = apply_token(&t, out);
		if (e) {
			problems++;
			if (err)
				err(ctx, e, t.key, t.keylen, t.value, t.valuelen);
		}
	}
	return problems;
}

int el_cmdline_split(const char **p, struct el_cmdline_token *t)
{
	while (**p) {
		*p = next_token(*p, t);
		if (t->keylen || t->value || t->open_quote)
			return 1;
		/* trailing whitespace or an empty "" (a lone '"' is a token: it opens a quote) */
	}
	return 0;
}

int el_cmdline_is_separator(const struct el_cmdline_token *t)
{
	return !t->value && span_eq(t->key, t->keylen, "--");
}

long el_cmdline_next_arg(const char **p, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;
	int in_quote = 0, fits = 1;

	while (is_space(*s))
		s++;
	if (!*s) {
		*p = s;
		return -1;
	}
	for (; *s && (in_quote || !is_space(*s)); s++) {
		if (*s == '"') {
			in_quote = !in_quote;
			continue;
		}
		if (n + 1 < outlen)
			out[n] = *s;
		else
			fits = 0;
		n++;
	}
	if (outlen)
		out[n < outlen ? n : outlen - 1] = '\0';
	*p = s;
	return fits ? (long)n : -2;
}
