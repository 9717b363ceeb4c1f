/*
 * Unit tests of the guest kernel's command-line parser (guest-kernel/lib/
 * cmdline.c), built for the host exactly as the VMM uses it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "cmdline.h"

#define MAX_PROBLEMS 8

struct problem {
	enum el_cmdline_error err;
	char key[64];
	char value[256];
	int has_value;
};

struct problems {
	int n;
	struct problem p[MAX_PROBLEMS];
};

static void record(void *ctx, enum el_cmdline_error err, const char *key, size_t keylen,
		   const char *value, size_t valuelen)
{
	struct problems *ps = ctx;
	struct problem *p;

	cr_assert_lt(ps->n, MAX_PROBLEMS, "more problems than the test expects");
	p = &ps->p[ps->n++];
	p->err = err;
	snprintf(p->key, sizeof(p->key), "%.*s", (int)keylen, key);
	p->has_value = value != NULL;
	if (value)
		snprintf(p->value, sizeof(p->value), "%.*s", (int)valuelen, value);
}

static int parse(const char *s, struct el_cmdline *c, struct problems *ps)
{
	memset(ps, 0, sizeof(*ps));
	int n = el_cmdline_parse(s, c, record, ps);
	cr_assert_eq(n, ps->n, "return value counts the reported problems");
	return n;
}

static void assert_defaults_except(const struct el_cmdline *c, int item)
{
	for (int i = 0; i < EL_CFG_COUNT; i++) {
		if (i == item)
			continue;
		cr_assert_eq(c->requested[i], el_config[i].def, "%s keeps its default",
			     el_config[i].key);
		cr_assert_eq(c->given[i], 0, "%s not given", el_config[i].key);
	}
}

Test(cmdline, defaults)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("", &c, &ps), 0);
	assert_defaults_except(&c, -1);
	cr_assert_str_eq(c.init, "");
	cr_assert_eq(c.test_crash, EL_CRASH_NONE);
	cr_assert_eq(c.tsc_khz, 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_MARKED, "absent: marked");
}

Test(cmdline, null_string_is_empty)
{
	struct el_cmdline c;

	cr_assert_eq(el_cmdline_parse(NULL, &c, NULL, NULL), 0);
	assert_defaults_except(&c, -1);
}

Test(cmdline, every_knob_every_value)
{
	for (size_t k = 0; k < EL_KNOB_COUNT; k++) {
		const struct el_knob_desc *kd = &el_knobs[k];
		struct el_cmdline c;
		struct problems ps;
		char buf[128];

		if (kd->flag_value >= 0)
			continue;
		for (int v = 0; el_config[kd->item].values[v]; v++) {
			snprintf(buf, sizeof(buf), "%s=%s", kd->name, el_config[kd->item].values[v]);
			cr_assert_eq(parse(buf, &c, &ps), 0, "%s", buf);
			cr_assert_eq(c.requested[kd->item], v, "%s", buf);
			cr_assert_eq(c.given[kd->item], 1, "%s", buf);
			assert_defaults_except(&c, kd->item);
		}
	}
}

Test(cmdline, flags)
{
	for (size_t k = 0; k < EL_KNOB_COUNT; k++) {
		const struct el_knob_desc *kd = &el_knobs[k];
		struct el_cmdline c;
		struct problems ps;

		if (kd->flag_value < 0)
			continue;
		cr_assert_eq(parse(kd->name, &c, &ps), 0, "%s", kd->name);
		cr_assert_eq(c.requested[kd->item], kd->flag_value, "%s", kd->name);
		cr_assert_eq(c.given[kd->item], 1, "%s", kd->name);
		assert_defaults_except(&c, kd->item);
	}
}

Test(cmdline, flags_combined_and_last_wins)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("nopcid noinvpcid pti=on", &c, &ps), 0);
	cr_assert_eq(c.requested[EL_CFG_PCID], EL_OFF);
	cr_assert_eq(c.requested[EL_CFG_INVPCID], EL_OFF);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);

	cr_assert_eq(parse("pti=on nopti", &c, &ps), 0);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_OFF);
	cr_assert_eq(parse("nopti pti=on", &c, &ps), 0);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
}

Test(cmdline, other_knobs)
{
	struct el_cmdline c;
	struct problems ps;
	static const char *const crashes[] = {"none",	  "triple", "hang",   "ud",
					      "badport",  "sysenter", "icebp", "badidt",
					      "mmio-exec", "report-backwards", "report-unmarked",
					      "report-boot-twice"};
	static const int crash_ids[] = {EL_CRASH_NONE,	   EL_CRASH_TRIPLE, EL_CRASH_HANG,
					EL_CRASH_UD,	   EL_CRASH_BADPORT, EL_CRASH_SYSENTER,
					EL_CRASH_ICEBP,	   EL_CRASH_BADIDT, EL_CRASH_MMIO_EXEC,
					EL_CRASH_REPORT_BACKWARDS, EL_CRASH_REPORT_UNMARKED,
					EL_CRASH_REPORT_BOOT_TWICE};

	cr_assert_eq(parse("init=/bin/bench el.tsc_khz=2994375", &c, &ps), 0);
	cr_assert_str_eq(c.init, "/bin/bench");
	cr_assert_eq(c.tsc_khz, 2994375);
	for (size_t i = 0; i < EL_ARRAY_SIZE(crashes); i++) {
		char buf[64];

		snprintf(buf, sizeof(buf), "test.crash=%s", crashes[i]);
		cr_assert_eq(parse(buf, &c, &ps), 0, "%s", buf);
		cr_assert_eq(c.test_crash, crash_ids[i], "%s", buf);
	}
}

Test(cmdline, epoch_ns)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("", &c, &ps), 0);
	cr_assert_eq(c.epoch_ns, 0, "absent: 0");
	cr_assert_eq(parse("pti=on el.epoch_ns=1764500000123456789 el.tsc_khz=21", &c, &ps), 0);
	cr_assert_eq(c.epoch_ns, 1764500000123456789ull);
	cr_assert_eq(c.tsc_khz, 21);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
	cr_assert_eq(parse("el.epoch_ns=-5 el.epoch_ns=1e9 el.epoch_ns=", &c, &ps), 3);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE);
	cr_assert_eq(c.epoch_ns, 0, "bad values leave it unset");
	cr_assert_eq(parse("el.epoch_ns", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_MISSING_VALUE);
}

Test(cmdline, other_knob_names)
{
	const char *want[] = {"init", "test.crash", "el.tsc_khz", "el.epoch_ns", "el.events",
			      "el.region", "el.argv0"};
	size_t n = 0;

	while (el_cmdline_other_knobs[n])
		n++;
	cr_assert_eq(n, 7);
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(el_cmdline_other_knobs[i], want[i]);
}

Test(cmdline, region_scope_from_the_vmm)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("pti=on", &c, &ps), 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_MARKED, "absent: marked");
	cr_assert_eq(parse("el.region=whole", &c, &ps), 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_WHOLE);
	cr_assert_eq(parse("el.region=marked", &c, &ps), 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_MARKED);
	cr_assert_eq(parse("el.region=marked el.region=whole", &c, &ps), 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_WHOLE, "the last one wins");
	cr_assert_eq(parse("el.region=\"whole\" pti=on", &c, &ps), 0);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_WHOLE, "quoted");
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
}

Test(cmdline, region_scope_refused)
{
	struct el_cmdline c;
	struct problems ps;
	static const char *const bad[] = {
		"el.region=none", "el.region=", "el.region=whole-program", "el.region=Whole",
		"el.region=wholex", "el.region=whol", "el.region=2", "el.region=marked,whole",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		char line[64];

		snprintf(line, sizeof(line), "el.region=whole %s", bad[i]);
		cr_assert_eq(parse(line, &c, &ps), 1, "'%s' accepted", bad[i]);
		cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE, "'%s'", bad[i]);
		cr_assert_str_eq(ps.p[0].key, "el.region");
		cr_assert_eq(c.region_scope, EL_REGION_SCOPE_WHOLE, "'%s' changed it", bad[i]);
	}
	cr_assert_eq(parse("el.region", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_MISSING_VALUE);
	cr_assert_eq(c.region_scope, EL_REGION_SCOPE_MARKED);
	/* The VMM's to set: a user's --append may not. */
	cr_assert_eq(el_cmdline_check_user("el.region=whole", NULL, NULL), 1);
	cr_assert_eq(el_cmdline_check_user("pti=on\tel.region=marked", NULL, NULL), 1);
}

Test(cmdline, events_from_the_vmm)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("", &c, &ps), 0);
	cr_assert_eq(c.nr_events, 0);
	cr_assert_eq(parse("pti=on el.events=0x3003c,0x200C0,0x0,0x100010120", &c, &ps), 0);
	cr_assert_eq(c.nr_events, 4);
	cr_assert_eq(c.events[0], 0x3003c);
	cr_assert_eq(c.events[1], 0x200c0, "hex digits in either case");
	cr_assert_eq(c.events[2], 0, "EL_EVENT_NONE keeps its place");
	cr_assert_eq(c.events[3], 0x100010120ull);
	cr_assert_eq(parse("el.events=0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8", &c, &ps), 0);
	cr_assert_eq(c.nr_events, EL_MAX_COUNTERS);
	cr_assert_eq(parse("el.events=0xffffffffffffffff", &c, &ps), 0);
	cr_assert_eq(c.events[0], UINT64_MAX);
}

Test(cmdline, events_malformed)
{
	struct el_cmdline c;
	struct problems ps;
	static const char *const bad[] = {
		"el.events=", "el.events=3003c", "el.events=0x", "el.events=0x1,", "el.events=,0x1",
		"el.events=0x1,,0x2", "el.events=0x1g", "el.events=0x10000000000000000",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		int n = parse(bad[i], &c, &ps);

		cr_assert_geq(n, 1, "'%s' accepted", bad[i]);
		cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE, "'%s'", bad[i]);
		cr_assert_str_eq(ps.p[0].key, "el.events");
		cr_assert_eq(c.nr_events, 0, "'%s': all or nothing", bad[i]);
	}
	cr_assert_eq(parse("el.events=0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_TOO_LONG, "more than EL_MAX_COUNTERS");
	cr_assert_eq(c.nr_events, 0);
	cr_assert_eq(parse("el.events", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_MISSING_VALUE);
}

Test(cmdline, quoting)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("init=\"/bin/my prog\" pti=on", &c, &ps), 0);
	cr_assert_str_eq(c.init, "/bin/my prog");
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);

	cr_assert_eq(parse("\"init=/a b\" \"nopcid\" vdso.tsc=\"rdtscp\"", &c, &ps), 0);
	cr_assert_str_eq(c.init, "/a b");
	cr_assert_eq(c.requested[EL_CFG_PCID], EL_OFF);
	cr_assert_eq(c.requested[EL_CFG_VDSO_TSC], EL_TSC_RDTSCP);

	/* An unterminated quote runs to the end of the line. */
	cr_assert_eq(parse("init=\"/x y  z", &c, &ps), 0);
	cr_assert_str_eq(c.init, "/x y  z");

	/* An empty quoted token is nothing. */
	cr_assert_eq(parse("\"\" pti=on", &c, &ps), 0);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
}

Test(cmdline, unknown_knob)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("console=ttyS0 quiet pti=on", &c, &ps), 2);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_UNKNOWN_KNOB);
	cr_assert_str_eq(ps.p[0].key, "console");
	cr_assert(ps.p[0].has_value);
	cr_assert_str_eq(ps.p[0].value, "ttyS0");
	cr_assert_eq(ps.p[1].err, EL_CMDLINE_UNKNOWN_KNOB);
	cr_assert_str_eq(ps.p[1].key, "quiet");
	cr_assert_not(ps.p[1].has_value);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON, "known knobs still apply");
	/* A prefix of a knob is not the knob. */
	cr_assert_eq(parse("pt=on ptix=on", &c, &ps), 2);
}

Test(cmdline, bad_value)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("pti=maybe", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE);
	cr_assert_str_eq(ps.p[0].key, "pti");
	cr_assert_str_eq(ps.p[0].value, "maybe");
	cr_assert_eq(c.requested[EL_CFG_PTI], el_config[EL_CFG_PTI].def, "unchanged");
	cr_assert_eq(c.given[EL_CFG_PTI], 0);

	cr_assert_eq(parse("pti=on pti=ON", &c, &ps), 1, "values are case-sensitive");
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON, "earlier value kept");
	cr_assert_eq(parse("pti=", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE);
	cr_assert_eq(parse("test.crash=explode", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE);
	cr_assert_eq(parse("el.tsc_khz=12x el.tsc_khz=-1 el.tsc_khz=", &c, &ps), 3);
	cr_assert_eq(parse("el.tsc_khz=18446744073709551616", &c, &ps), 1, "overflow");
	cr_assert_eq(parse("el.tsc_khz=18446744073709551615", &c, &ps), 0);
	cr_assert_eq(c.tsc_khz, UINT64_MAX);
	cr_assert_eq(parse("init=", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_BAD_VALUE);
}

Test(cmdline, missing_value)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("pti vsyscall init", &c, &ps), 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(ps.p[i].err, EL_CMDLINE_MISSING_VALUE);
		cr_assert_not(ps.p[i].has_value, "value is NULL when absent");
	}
	cr_assert_str_eq(ps.p[2].key, "init");
}

Test(cmdline, unexpected_value)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("nopti=1", &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_UNEXPECTED_VALUE);
	cr_assert_str_eq(ps.p[0].key, "nopti");
	cr_assert_str_eq(ps.p[0].value, "1");
	cr_assert_eq(c.given[EL_CFG_PTI], 0);
}

Test(cmdline, too_long)
{
	struct el_cmdline c;
	struct problems ps;
	char buf[512];
	size_t room = sizeof(c.init) - 1;

	/* The longest path that fits. */
	snprintf(buf, sizeof(buf), "init=/%0*d", (int)room - 1, 0);
	cr_assert_eq(parse(buf, &c, &ps), 0);
	cr_assert_eq(strlen(c.init), room);

	snprintf(buf, sizeof(buf), "init=/%0*d pti=on", (int)room, 0);
	cr_assert_eq(parse(buf, &c, &ps), 1);
	cr_assert_eq(ps.p[0].err, EL_CMDLINE_TOO_LONG);
	cr_assert_str_eq(c.init, "", "init unchanged");
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
}

Test(cmdline, whitespace_runs)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("  \t pti=on \n\n  nopcid   \r\n", &c, &ps), 0);
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
	cr_assert_eq(c.requested[EL_CFG_PCID], EL_OFF);
	cr_assert_eq(parse(" \t\n ", &c, &ps), 0);
	assert_defaults_except(&c, -1);
}

Test(cmdline, no_callback_still_counts)
{
	struct el_cmdline c;

	cr_assert_eq(el_cmdline_parse("bogus pti=maybe nopti=1 pti", &c, NULL, NULL), 4);
}

Test(cmdline, init_args_after_separator)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("pti=on", &c, &ps), 0);
	cr_assert_null(c.init_args, "no `--`: no arguments");
	cr_assert_eq(parse("pti=on -- -x pti=off bogus", &c, &ps), 0,
		     "knobs after `--` belong to init, not to the kernel");
	cr_assert_eq(c.requested[EL_CFG_PTI], EL_ON);
	cr_assert_str_eq(c.init_args, "-x pti=off bogus");
	cr_assert_eq(parse("--", &c, &ps), 0);
	cr_assert_str_eq(c.init_args, "");
	cr_assert_eq(parse("init=/bin/x --  ", &c, &ps), 0);
	cr_assert_str_eq(c.init, "/bin/x");
	cr_assert_str_eq(c.init_args, "");
	cr_assert_eq(parse("--x", &c, &ps), 1, "`--x` is no separator");
	cr_assert_null(c.init_args);
}

Test(cmdline, next_arg_splits_like_a_shell_lite)
{
	const char *p = "  a \"b c\"\td\"e f\"g  \"\" ";
	char out[16];

	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), 1);
	cr_assert_str_eq(out, "a");
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), 3);
	cr_assert_str_eq(out, "b c");
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), 5);
	cr_assert_str_eq(out, "de fg");
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), 0, "\"\" is an empty argument");
	cr_assert_str_eq(out, "");
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), -1);
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), -1, "stays at the end");
}

Test(cmdline, next_arg_too_long)
{
	const char *p = "abcdefgh ij";
	char out[4];

	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), -2);
	cr_assert_str_eq(out, "abc", "cut, NUL-terminated");
	cr_assert_eq(el_cmdline_next_arg(&p, out, sizeof(out)), 2, "the next one is intact");
	cr_assert_str_eq(out, "ij");
}

Test(cmdline, argv0_from_the_vmm)
{
	struct el_cmdline c;
	struct problems ps;

	cr_assert_eq(parse("pti=on -- a b", &c, &ps), 0);
	cr_expect_str_eq(c.argv0, "", "absent: init's path");
	cr_assert_eq(parse("el.argv0=\"my prog\" -- a", &c, &ps), 0);
	cr_expect_str_eq(c.argv0, "my prog");
	cr_expect_neq(parse("el.argv0=", &c, &ps), 0, "an empty name is a problem");
}
