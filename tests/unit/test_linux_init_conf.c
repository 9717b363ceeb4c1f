/*
 * entrylab's /init for Linux: its conf (EL_LINUX_CONF) and argv
 * (EL_LINUX_ARGV) parsers, with what a broken or hostile host could write.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "array_size.h"
#include "guest/linux/argv.h"
#include "guest/linux/conf.h"

static int parse(const char *text, struct linit_conf *c, char *err)
{
	return linit_conf_parse(text, strlen(text), c, err, 256);
}

Test(linux_init_conf, empty_is_no_events_no_ksyms)
{
	struct linit_conf c;
	char err[256];

	cr_assert_eq(parse("", &c, err), 0, "%s", err);
	cr_expect_eq(c.nr_events, 0);
	cr_expect_eq(c.ksyms, 0);
	cr_assert_eq(parse("\n\n", &c, err), 0, "%s", err);
}

Test(linux_init_conf, events_and_ksyms)
{
	struct linit_conf c;
	char err[256];

	cr_assert_eq(parse("events=0x3003c,0x100C0,0x0\nksyms=1\n", &c, err), 0, "%s", err);
	cr_expect_eq(c.nr_events, 3);
	cr_expect_eq(c.events[0], 0x3003cull);
	cr_expect_eq(c.events[1], 0x100c0ull);
	cr_expect_eq(c.events[2], EL_EVENT_NONE);
	cr_expect_eq(c.ksyms, 1);
	/* The last line may end the file without a newline. */
	cr_assert_eq(parse("ksyms=0", &c, err), 0, "%s", err);
	cr_expect_eq(c.ksyms, 0);
	/* AMD's event select [11:8]. */
	cr_assert_eq(parse("events=0x1000300c1", &c, err), 0, "%s", err);
	cr_expect_eq(c.events[0], 0x1000300c1ull);
}

Test(linux_init_conf, eight_events_fit_nine_do_not)
{
	struct linit_conf c;
	char err[256];

	cr_assert_eq(parse("events=0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8", &c, err), 0, "%s", err);
	cr_expect_eq(c.nr_events, EL_MAX_COUNTERS);
	cr_expect_eq(parse("events=0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9", &c, err), -1);
	cr_expect(strstr(err, "EL_MAX_COUNTERS"), "%s", err);
}

Test(linux_init_conf, hostile_lines_are_refused)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"color=blue\n", "unknown key"},
		{"events=0x1\nevents=0x2\n", "twice"},
		{"ksyms\n", "KEY=VALUE"},
		{"=1\n", "unknown key"},
		{"ksyms=2\n", "0 or 1"},
		{"ksyms=1\r\n", "0 or 1"},
		{"ksyms= 1\n", "0 or 1"},
		{" ksyms=1\n", "unknown key"},
		{"events=\n", "no events"},
		{"events=3c\n", "hex digits"},
		{"events=0x\n", "hex digits"},
		{"events=0x1,\n", "hex digits"},
		{"events=,0x1\n", "hex digits"},
		{"events=0x1,,0x2\n", "hex digits"},
		{"events=0x12345678901234567\n", "hex digits"},
		{"events=0xzz\n", "hex digits"},
		{"events=0x400000\n", "EL_EVSEL_ALLOWED"},    /* the enable bit */
		{"events=0x100000\n", "EL_EVSEL_ALLOWED"},    /* INT */
		{"events=0x10000000000\n", "EL_EVSEL_ALLOWED"}, /* AMD guest-only */
	};
	struct linit_conf c;
	char err[256];

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		cr_expect_eq(parse(bad[i].text, &c, err), -1, "accepted '%s'", bad[i].text);
		cr_expect(strstr(err, bad[i].why), "'%s': %s", bad[i].text, err);
		cr_expect(strstr(err, "line 1") || strstr(err, "line 2"), "no line: %s", err);
	}
}

Test(linux_init_conf, region_scope)
{
	struct linit_conf c;
	char err[256];

	cr_assert_eq(parse("", &c, err), 0, "%s", err);
	cr_expect_eq(c.region, EL_REGION_SCOPE_MARKED, "absent is marked");
	cr_assert_eq(parse("region=whole\n", &c, err), 0, "%s", err);
	cr_expect_eq(c.region, EL_REGION_SCOPE_WHOLE);
	cr_assert_eq(parse("events=0x3003c\nregion=marked", &c, err), 0, "%s", err);
	cr_expect_eq(c.region, EL_REGION_SCOPE_MARKED);
	cr_expect_eq(c.nr_events, 1);
}

Test(linux_init_conf, region_scope_refusals)
{
	/* "none" is reported, never asked; the record's "whole-program" is no conf value. */
	static const char *const bad[] = {
		"region=none\n", "region=\n", "region=Whole\n", "region=whole-program\n",
		"region=whole \n", "region=wholex\n", "region=mark\n", "region=whole\r\n",
	};
	struct linit_conf c;
	char err[256];

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		cr_expect_eq(parse(bad[i], &c, err), -1, "accepted '%s'", bad[i]);
		cr_expect(strstr(err, "marked or whole"), "'%s': %s", bad[i], err);
	}
	cr_expect_eq(parse("region=whole\nregion=whole\n", &c, err), -1);
	cr_expect(strstr(err, "twice"), "%s", err);
}

Test(linux_init_conf, nul_byte_is_refused)
{
	static const char text[] = "ksyms=1\n\0events=0x1\n";
	struct linit_conf c;
	char err[256];

	cr_expect_eq(linit_conf_parse(text, sizeof(text) - 1, &c, err, sizeof(err)), -1);
	cr_expect(strstr(err, "NUL"), "%s", err);
}

Test(linux_init_conf, long_garbage_is_refused_with_a_short_message)
{
	static char text[8192];
	struct linit_conf c;
	char err[128];

	memset(text, 'A', sizeof(text) - 1);
	cr_expect_eq(linit_conf_parse(text, sizeof(text) - 1, &c, err, sizeof(err)), -1);
	cr_expect_lt(strlen(err), sizeof(err));
}

Test(linux_init_argv, strings_become_argv)
{
	char buf[] = "1G\0" "100\0" "with space\0";
	char *argv[8], err[128];
	int argc = linit_argv_split(buf, sizeof(buf) - 1, "/entrylab/program", argv, 8, err,
				    sizeof(err));

	cr_assert_eq(argc, 4, "%s", err);
	cr_expect_str_eq(argv[0], "/entrylab/program");
	cr_expect_str_eq(argv[1], "1G");
	cr_expect_str_eq(argv[2], "100");
	cr_expect_str_eq(argv[3], "with space");
	cr_expect_null(argv[4]);
}

Test(linux_init_argv, empty_file_and_empty_argument)
{
	char none[1], empty[] = "\0";
	char *argv[4], err[128];

	cr_expect_eq(linit_argv_split(none, 0, "p", argv, 4, err, sizeof(err)), 1);
	cr_expect_null(argv[1]);
	cr_expect_eq(linit_argv_split(empty, 1, "p", argv, 4, err, sizeof(err)), 2);
	cr_expect_str_eq(argv[1], "");
}

Test(linux_init_argv, cut_or_too_many_refused)
{
	char cut[] = {'a', 'b'}, many[] = "a\0b\0c\0";
	char *argv[4], err[128];

	cr_expect_eq(linit_argv_split(cut, sizeof(cut), "p", argv, 4, err, sizeof(err)), -1);
	cr_expect(strstr(err, "no NUL"), "%s", err);
	cr_expect_eq(linit_argv_split(many, sizeof(many) - 1, "p", argv, 4, err, sizeof(err)), -1);
	cr_expect(strstr(err, "more than 2"), "%s", err);
}

/* faults=0: trace's "no page-fault event"; absent counts them. */
Test(linux_init_conf, faults_key)
{
	struct linit_conf c;
	char err[256];

	cr_assert_eq(parse("region=whole\n", &c, err), 0, "%s", err);
	cr_expect_eq(c.no_faults, 0, "absent: counted");
	cr_assert_eq(parse("region=whole\nfaults=0\n", &c, err), 0, "%s", err);
	cr_expect_eq(c.no_faults, 1);
	cr_assert_eq(parse("faults=1\n", &c, err), 0, "%s", err);
	cr_expect_eq(c.no_faults, 0);
	cr_expect_eq(parse("faults=no\n", &c, err), -1);
	cr_expect(strstr(err, "faults takes 0 or 1"), "%s", err);
}

Test(linux_init_conf, argv0_names_the_program)
{
	struct linit_conf c;
	char err[256];
	char long_name[200];

	cr_assert_eq(parse("", &c, err), 0, "%s", err);
	cr_expect_str_eq(c.argv0, "", "absent: /init uses the program's path");
	cr_assert_eq(parse("region=whole\nargv0=busybox\n", &c, err), 0, "%s", err);
	cr_expect_str_eq(c.argv0, "busybox");
	cr_expect_neq(parse("argv0=\n", &c, err), 0, "an empty argv0 is refused");
	memset(long_name, 'a', sizeof(long_name));
	memcpy(long_name, "argv0=", 6);
	long_name[sizeof(long_name) - 1] = '\0';
	cr_expect_neq(parse(long_name, &c, err), 0, "a name past 127 bytes is refused");
}
