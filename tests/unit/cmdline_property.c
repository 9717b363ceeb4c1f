/*
 * cmdline_property_check (cmdline_property.h): splits a --append the way both
 * worlds do (el_cmdline_split), rejoins and resplits it, composes the guest's
 * line as the VMM does (pvh_cmdline_compose, events_cmdline_append) and as
 * `entrylab trace` does (trace_guest_cmdline, QEMU's -append), and parses
 * those as the guest kernel does (el_cmdline_parse).
 */
#include <string.h>

#include "cmdline.h"
#include "cmdline_property.h"
#include "events.h"
#include "pvh_start.h"
#include "trace.h"

#define MAX_TOKENS  1024
#define VMM_TSC_KHZ 2500123u
#define VMM_EVENT   0x53003cull

static int token_eq(const struct el_cmdline_token *a, const struct el_cmdline_token *b)
{
	return a->rawlen == b->rawlen && !memcmp(a->raw, b->raw, a->rawlen) &&
	       a->keylen == b->keylen && !memcmp(a->key, b->key, a->keylen) &&
	       !a->value == !b->value && a->valuelen == b->valuelen &&
	       (!a->value || !memcmp(a->value, b->value, a->valuelen)) &&
	       a->open_quote == b->open_quote;
}

/* Splits s into t[]; returns the count, -1 when there are too many. */
static int split_all(const char *s, struct el_cmdline_token *t, int max)
{
	int n = 0;

	while (n < max && el_cmdline_split(&s, &t[n]))
		n++;
	return n < max ? n : -1;
}

/* The raw tokens joined by single spaces: the line as the host understood it. */
static int rejoin(const struct el_cmdline_token *t, int n, char *out, size_t len)
{
	size_t at = 0;

	for (int i = 0; i < n; i++) {
		if (at + t[i].rawlen + 2 > len)
			return -1;
		if (i)
			out[at++] = ' ';
		memcpy(out + at, t[i].raw, t[i].rawlen);
		at += t[i].rawlen;
	}
	out[at] = '\0';
	return 0;
}

static const char *check_guest_line(const char *append, const struct el_cmdline_token *host, int n)
{
	static struct el_cmdline_token guest[MAX_TOKENS];
	static char line[EL_CMDLINE_MAX + 64];
	const uint64_t ev = VMM_EVENT;
	struct el_cmdline a, g;
	char err[256];
	int m;

	if (pvh_cmdline_compose(line, sizeof(line), append, VMM_TSC_KHZ, err, sizeof(err)) ||
	    events_cmdline_append(line, sizeof(line), &ev, 1, err, sizeof(err)))
		return NULL; /* too long: the VMM refuses to boot */
	m = split_all(line, guest, MAX_TOKENS);
	if (m != n + 3)
		return "the guest's line has not the host's tokens plus the VMM's three";
	for (int i = 0; i < n; i++)
		if (!token_eq(&host[i], &guest[i]))
			return "a guest token differs from the host's";
	if (el_cmdline_parse(line, &g, NULL, NULL) != el_cmdline_parse(append, &a, NULL, NULL))
		return "the guest finds other problems than the host";
	if (g.tsc_khz != VMM_TSC_KHZ || g.nr_events != 1 || g.events[0] != VMM_EVENT ||
	    g.epoch_ns == 0)
		return "the guest's el.* values are not the VMM's";
	if (g.init_args)
		return "the guest hands part of the line to init";
	return NULL;
}

/* The same for the line `entrylab trace` gives QEMU: host tokens, then its two el.* knobs. */
static const char *check_trace_line(const char *append, const struct el_cmdline_token *host, int n)
{
	static struct el_cmdline_token guest[MAX_TOKENS];
	static char line[EL_CMDLINE_MAX];
	struct el_cmdline g;
	char err[256];

	if (trace_guest_cmdline(line, sizeof(line), append, NULL, err, sizeof(err)))
		return NULL; /* too long: the trace is refused */
	if (split_all(line, guest, MAX_TOKENS) != n + 2)
		return "the traced guest's line has not the host's tokens plus two el.* knobs";
	for (int i = 0; i < n; i++)
		if (!token_eq(&host[i], &guest[i]))
			return "a traced guest's token differs from the host's";
	el_cmdline_parse(line, &g, NULL, NULL);
	if (g.tsc_khz != EL_TRACE_TSC_KHZ || g.epoch_ns != EL_TRACE_EPOCH_S * 1000000000ull ||
	    g.init_args)
		return "the traced guest's el.* values are not the tracer's";
	return NULL;
}

const char *cmdline_property_check(const char *append)
{
	static struct el_cmdline_token host[MAX_TOKENS], again[MAX_TOKENS];
	static char joined[2 * EL_CMDLINE_MAX + 2];
	const char *why;
	int n;

	if (el_cmdline_check_user(append, NULL, NULL))
		return NULL; /* refused: nothing reaches the guest */
	n = split_all(append, host, MAX_TOKENS);
	if (n < 0)
		return NULL; /* more tokens than any line the VMM boots */
	for (int i = 0; i < n; i++)
		if (host[i].keylen >= 3 && !memcmp(host[i].key, "el.", 3))
			return "an el.* knob passed the host's check";
	if (rejoin(host, n, joined, sizeof(joined)) == 0) {
		const char *p = joined;

		if (split_all(p, again, MAX_TOKENS) != n)
			return "rejoined, the line splits into another number of tokens";
		for (int i = 0; i < n; i++)
			if (!token_eq(&host[i], &again[i]))
				return "rejoined, a token splits differently";
	}
	why = check_guest_line(append, host, n);
	return why ? why : check_trace_line(append, host, n);
}
