/*
 * Unit tests of the one command-line splitter of both worlds
 * (el_cmdline_split) and of the --append check built on it
 * (el_cmdline_check_user, request_check_append): no whitespace, quote or
 * NUL spelling smuggles an el.* knob past the host into the guest.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "array_size.h"
#include "cmdline.h"
#include "cmdline_property.h"
#include "request.h"

/* The keys of s's tokens, each followed by '|'. */
static void keys(const char *s, char *out, size_t len)
{
	struct el_cmdline_token t;
	size_t at = 0;

	out[0] = '\0';
	while (el_cmdline_split(&s, &t) && at + t.keylen + 2 < len) {
		memcpy(out + at, t.key, t.keylen);
		at += t.keylen;
		out[at++] = '|';
		out[at] = '\0';
	}
}

Test(cmdline_split, every_whitespace_separates)
{
	char k[128];

	keys(" \t\tpti=on\nnopcid\r\v\fvdso=off   ", k, sizeof(k));
	cr_expect_str_eq(k, "pti|nopcid|vdso|");
}

Test(cmdline_split, quotes_and_empty_tokens)
{
	struct el_cmdline_token t;
	const char *s = "\"init=/bin/a b\" \"\" x=\"1 2\"";

	cr_assert(el_cmdline_split(&s, &t));
	cr_expect_eq(t.rawlen, strlen("\"init=/bin/a b\""));
	cr_expect_eq(t.valuelen, strlen("/bin/a b"));
	cr_expect(!t.open_quote);
	cr_assert(el_cmdline_split(&s, &t), "the empty \"\" is skipped, x follows");
	cr_expect_eq(t.keylen, 1);
	cr_expect_eq(strncmp(t.value, "1 2", t.valuelen), 0);
	cr_expect(!el_cmdline_split(&s, &t));
}

Test(cmdline_split, open_quote_runs_to_the_end)
{
	struct el_cmdline_token t;
	const char *s = "init=\"/bin/a el.tsc_khz=1";

	cr_assert(el_cmdline_split(&s, &t));
	cr_expect(t.open_quote);
	cr_expect_eq(*s, '\0');
}

Test(cmdline_split, vmm_knobs_refused_however_spelled)
{
	static const char *const smuggled[] = {
		"el.events=0x3c",        "\t\tel.events=0x3c",     "pti=on\tel.tsc_khz=1",
		"pti=on\nel.epoch_ns=5", "x\rel.events=0x1",       "x\vel.events=0x1",
		"x\fel.events=0x1",      "pti=on   el.events=0x1", "\"el.events=0x3c\"",
		"el.anything",           "\"el.events\"=0x1",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(smuggled); i++) {
		cr_expect_eq(el_cmdline_check_user(smuggled[i], NULL, NULL), 1, "[%zu] %s", i,
			     smuggled[i]);
		cr_expect_geq(request_check_append(smuggled[i]), 1, "[%zu] %s", i, smuggled[i]);
	}
}

Test(cmdline_split, lines_that_would_swallow_the_vmm_knobs)
{
	cr_expect_eq(el_cmdline_check_user("init=\"/bin/a", NULL, NULL), 1);
	/* found by fuzz_cmdline: a lone '"' would open a quote around the VMM's knobs */
	cr_expect_eq(el_cmdline_check_user("x \"", NULL, NULL), 1);
	cr_expect_eq(el_cmdline_check_user("x\t\"", NULL, NULL), 1);
	cr_expect_eq(el_cmdline_check_user("pti=on -- el.events=0x1", NULL, NULL), 2);
	cr_expect_eq(el_cmdline_check_user("pti=on --", NULL, NULL), 1);
	cr_expect_eq(request_check_append("pti=on --"), 1);
}

Test(cmdline_split, ordinary_lines_pass)
{
	cr_expect_eq(el_cmdline_check_user("pti=on\tnopcid init=\"/bin/a b\" x=el.y", NULL, NULL),
		     0);
	cr_expect_eq(request_check_append("pti=on\tnopcid"), 0);
}

Test(cmdline_split, nul_ends_the_line_for_both)
{
	static const char line[] = "pti=on\0el.events=0x1";

	cr_expect_eq(el_cmdline_check_user(line, NULL, NULL), 0);
	cr_expect_null(cmdline_property_check(line));
}

/* Host accepts => the guest sees the host's tokens, then the VMM's el.* values. */
Test(cmdline_split, host_accepted_is_guest_seen)
{
	static const char *const lines[] = {
		"",
		"pti=on",
		" \t\tpti=on\nnopcid\r\v\f",
		"init=\"/bin/a b\" vdso=off",
		"\"init=/x y\"",
		"bogus=1 pti=maybe",
		"\"\" \"\"",
		"a\"b c\"d",
		"x \"", /* found by fuzz_cmdline */
		"\"",
		"\t\tel.events=0x3c",
		"init=\"/bin/a",
		"-- el.tsc_khz=1",
		"x=\"\"\"",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(lines); i++) {
		const char *why = cmdline_property_check(lines[i]);

		cr_expect_null(why, "[%zu] '%s': %s", i, lines[i], why ? why : "");
	}
}
