/*
 * What eltrace's window is: its arguments, read into the plugin's state,
 * and the instructions that mark it, matched by address and bytes.  Pure
 * (no QEMU call): the unit tests run it as the plugin does.
 *
 *   begin=ADDR end=ADDR [open=out|user]          our kernel's marker OUTs
 *     open=out (default): the window opens at the BEGIN OUT (OUT);
 *     open=user: at the first user instruction (below USER_END) once the
 *     BEGIN OUT ran (USER: the whole program, from its first user
 *     instruction after exec).  Both close at the END OUT.
 *   begin_site=ADDR... end_site=ADDR...          a Linux program's SYSCALLs
 *     (SITES), each repeated per site, at most MAX_SITES of a kind.
 *   entry=ADDR:BYTES end=ADDR[:BYTES]            a Linux program, whole
 *     (ENTRY): opens at its ELF entry point, closes at /init's label;
 *     BYTES (hex, 1..16) are what the host read at ADDR in the file: the
 *     instruction there must start with them, so other code at the same
 *     address (another program's) never matches.
 *   out=FILE [listing=on|off]                    always
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eltrace.h"
#include "hex_digit.h"

const char *const window_kind_names[WINDOW_KINDS] = {"out", "user", "sites", "entry"};

static bool parse_addr(const char *s, uint64_t *out)
{
	char *end;

	if (*s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && *s && !*end && *out;
}

/* ADDR, or ADDR:BYTES when bytes_ok (BYTES: 1..MAX_INSN_BYTES as hex pairs). */
static bool parse_mark(const char *s, bool bytes_ok, struct mark *m)
{
	const char *colon = strchr(s, ':');
	char addr[40];
	size_t alen = colon ? (size_t)(colon - s) : strlen(s);

	memset(m, 0, sizeof(*m));
	if (alen == 0 || alen >= sizeof(addr) || (colon && !bytes_ok))
		return false;
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	if (!parse_addr(addr, &m->vaddr))
		return false;
	if (!colon)
		return true;
	for (const char *h = colon + 1; *h; h += 2) {
		int hi = el_hex_digit(h[0]), lo = hi < 0 ? -1 : el_hex_digit(h[1]);

		if (lo < 0 || m->nbytes == MAX_INSN_BYTES)
			return false;
		m->bytes[m->nbytes++] = (uint8_t)(hi << 4 | lo);
	}
	return m->nbytes > 0;
}

/* begin_site=ADDR / end_site=ADDR: one more site of that kind (a user address). */
static bool parse_site(const char *a, const char *key, uint64_t *sites, unsigned *n)
{
	size_t k = strlen(key);
	uint64_t v;

	if (strncmp(a, key, k) || !parse_addr(a + k, &v) || v >= USER_END || *n == MAX_SITES)
		return false;
	sites[(*n)++] = v;
	return true;
}

#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* Which of the three argument sets was given, and is it complete and alone? */
static int settle_kind(struct eltrace *s, bool have_begin, bool have_entry, bool open_user,
		       bool open_given, char *err, size_t errlen)
{
	bool sites = s->nbegin || s->nend;

	if ((have_begin + have_entry + sites) != 1)
		return FAIL("give one window: begin= and end= (our kernel), begin_site= and "
			    "end_site= (a Linux program's markers), or entry= and end= (a Linux "
			    "program, whole)");
	if (open_given && !have_begin)
		return FAIL("open= applies to begin= and end= (our kernel's marker OUTs)");
	if (sites) {
		if (!s->nbegin || !s->nend || s->end.vaddr)
			return FAIL("begin_site= and end_site= go together, without end=");
		s->kind = WINDOW_SITES;
		s->begin.vaddr = s->begin_site[0];
		s->end.vaddr = s->end_site[0];
		return 0;
	}
	if (!s->end.vaddr)
		return FAIL("end= is required with %s", have_entry ? "entry=" : "begin=");
	if (have_entry) {
		if (s->begin.vaddr >= USER_END || s->end.vaddr >= USER_END)
			return FAIL("entry= and end= are user addresses (below 0x%llx)",
				    (unsigned long long)USER_END);
		s->kind = WINDOW_ENTRY;
		return 0;
	}
	if (s->end.nbytes)
		return FAIL("end=ADDR takes no bytes with begin= (the OUTs match by address)");
	s->kind = open_user ? WINDOW_USER : WINDOW_OUT;
	return 0;
}

int eltrace_args(struct eltrace *s, int argc, char **argv, char *err, size_t errlen)
{
	bool have_begin = false, have_entry = false, open_user = false, open_given = false;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (parse_site(a, "begin_site=", s->begin_site, &s->nbegin) ||
		    parse_site(a, "end_site=", s->end_site, &s->nend))
			continue;
		if (!strncmp(a, "begin=", 6) && !have_entry &&
		    parse_mark(a + 6, false, &s->begin)) {
			have_begin = true;
			continue;
		}
		if (!strncmp(a, "entry=", 6) && !have_begin && parse_mark(a + 6, true, &s->begin) &&
		    s->begin.nbytes) {
			have_entry = true;
			continue;
		}
		if (!strncmp(a, "end=", 4) && parse_mark(a + 4, true, &s->end))
			continue;
		if (!strcmp(a, "open=user") || !strcmp(a, "open=out")) {
			open_user = a[5] == 'u';
			open_given = true;
			continue;
		}
		if (!strncmp(a, "out=", 4) && a[4]) {
			s->out = a + 4;
			continue;
		}
		if (!strcmp(a, "listing=on") || !strcmp(a, "listing=off")) {
			s->listing = a[9] == 'n';
			continue;
		}
		return FAIL("unknown or malformed argument '%s'; expected begin=ADDR end=ADDR "
			    "[open=out|user], begin_site=ADDR... end_site=ADDR... (user "
			    "addresses, at most %d each), or entry=ADDR:BYTES end=ADDR[:BYTES]; "
			    "and out=FILE [listing=on]", a, MAX_SITES);
	}
	if (!s->out)
		return FAIL("out=FILE is required");
	return settle_kind(s, have_begin, have_entry, open_user, open_given, err, errlen);
}

bool mark_matches(const struct mark *m, const struct insn *e)
{
	unsigned n = e->size < m->nbytes ? e->size : m->nbytes;

	if (e->vaddr != m->vaddr)
		return false;
	return !m->nbytes || (n && !memcmp(e->bytes, m->bytes, n));
}

bool insn_is_site(const struct insn *e, const uint64_t *sites, unsigned n)
{
	if (e->vaddr >= USER_END || e->size != 2 || e->bytes[0] != 0x0f || e->bytes[1] != 0x05)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (sites[i] == e->vaddr)
			return true;
	return false;
}
