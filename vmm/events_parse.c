/*
 * -e LIST: comma-separated perf names with :u / :k modifiers, or raw rUUEE
 * events, checked completely before anything boots; and the el.events knob
 * that carries the resolved event selects to the guest kernel (abi.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "events_priv.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* Raw bits a user may set; USR/OS come from the modifiers, the rest is the kernel's. */
#define RAW_ALLOWED (EL_EVSEL_ALLOWED & ~(EL_EVSEL_USR | EL_EVSEL_OS))

static int find_name(const char *name, size_t len)
{
	for (unsigned i = 0; i < ev_table_len; i++) {
		const struct ev_row *r = &ev_table[i];

		if ((strlen(r->name) == len && !strncmp(r->name, name, len)) ||
		    (r->alias && strlen(r->alias) == len && !strncmp(r->alias, name, len)))
			return (int)i;
	}
	return -1;
}

static int parse_mods(const char *tok, const char *mods, uint64_t *priv, char *err,
		      size_t errlen)
{
	*priv = 0;
	if (!mods) {
		*priv = EL_EVSEL_USR | EL_EVSEL_OS;
		return 0;
	}
	if (!*mods)
		return ERR("-e: '%s' has an empty modifier; write NAME:u (user), NAME:k (kernel) "
			   "or just NAME (both)", tok);
	for (const char *m = mods; *m; m++) {
		if (*m == 'u')
			*priv |= EL_EVSEL_USR;
		else if (*m == 'k')
			*priv |= EL_EVSEL_OS;
		else
			return ERR("-e: '%s': modifier '%c' is not supported; entrylab "
				   "counts in the guest only, so use :u (user), :k (kernel) or "
				   "none (both)", tok, *m);
	}
	return 0;
}

static int parse_raw(const char *tok, const char *hex, size_t len, uint64_t *raw, char *err,
		     size_t errlen)
{
	uint64_t v = 0;

	if (len == 0 || len > 16 || strspn(hex, "0123456789abcdefABCDEF") < len)
		return ERR("-e: '%s' is not a raw event; write rUUEE in hex (umask << 8 | event), "
			   "e.g. r01c2, or a name from `entrylab list events`", tok);
	for (size_t i = 0; i < len; i++) {
		char c = hex[i] | 0x20;

		v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	if (v & ~RAW_ALLOWED)
		return ERR("-e: '%s' sets bits 0x%" PRIx64 " that entrylab owns (USR/OS come "
			   "from :u/:k; enable, interrupt, AnyThread and Host/Guest-only are "
			   "never yours); keep to event, umask, edge, inv, cmask and AMD's event "
			   "bits 35:32", tok, (uint64_t)(v & ~RAW_ALLOWED));
	if (!(v & (EL_EVSEL_EVENT | EL_EVSEL_UMASK | EL_EVSEL_EVENT_HI)))
		return ERR("-e: '%s' selects event 0 with umask 0, which counts nothing; give "
			   "umask << 8 | event, e.g. r00c0", tok);
	*raw = v;
	return 0;
}

static int parse_token(const char *tok, struct el_event_req *e, char *err, size_t errlen)
{
	const char *colon = strchr(tok, ':');
	size_t len = colon ? (size_t)(colon - tok) : strlen(tok);

	*e = (struct el_event_req){.id = -1};
	snprintf(e->name, sizeof(e->name), "%s", tok);
	if (parse_mods(tok, colon ? colon + 1 : NULL, &e->priv, err, errlen))
		return -1;
	e->id = find_name(tok, len);
	if (e->id >= 0)
		return 0;
	if (tok[0] == 'r' && len > 1)
		return parse_raw(tok, tok + 1, len - 1, &e->raw, err, errlen);
	return ERR("-e: unknown event '%.*s'; `entrylab list events` lists the names, rUUEE "
		   "(hex, umask << 8 | event) gives a raw one", (int)len, tok);
}

int events_parse(const char *list, struct el_event_list *out, char *err, size_t errlen)
{
	const char *p = list ? list : "";

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char tok[EL_EVENT_NAME_MAX];

		if (len == 0)
			return ERR("-e '%s': an empty event between commas; separate names with "
				   "one comma, e.g. -e cycles,instructions:k", list);
		if (len >= sizeof(tok))
			return ERR("-e: '%.*s' is longer than %d characters; no event name is that "
				   "long (`entrylab list events`)", (int)len, p,
				   EL_EVENT_NAME_MAX - 1);
		if (out->n == EL_MAX_COUNTERS)
			return ERR("-e '%s': more than %u events; the guest has at most %u "
				   "counters a run: drop some, or measure them in another run",
				   list, EL_MAX_COUNTERS, EL_MAX_COUNTERS);
		memcpy(tok, p, len);
		tok[len] = '\0';
		if (parse_token(tok, &out->ev[out->n], err, errlen))
			return -1;
		for (unsigned i = 0; i < out->n; i++)
			if (!strcmp(out->ev[i].name, tok))
				return ERR("-e: '%s' is given twice; name each event once", tok);
		out->n++;
		p += len + (end ? 1 : 0);
		if (end && !*p)
			return ERR("-e '%s' ends with a comma; drop it or name another event",
				   list);
	}
	return 0;
}

int events_cmdline_append(char *buf, size_t len, const uint64_t *cfg, unsigned n, char *err,
			  size_t errlen)
{
	size_t orig = strlen(buf), used = orig;
	int w;

	for (unsigned i = 0; i < n; i++) {
		w = snprintf(buf + used, len - used, "%s0x%" PRIx64,
			     i ? "," : (orig ? " el.events=" : "el.events="), cfg[i]);
		if (w < 0 || (size_t)w >= len - used) {
			buf[orig] = '\0'; /* all or nothing */
			return ERR("the guest command line has no room for el.events (%zu of %zu "
				   "bytes used): shorten --append", orig, len);
		}
		used += (size_t)w;
	}
	return 0;
}
