/*
 * -e parsing and the event table (vmm/events.c, events_parse.c): names,
 * modifiers, raw events, every error naming its token, encodings per CPU
 * model (not-supported where no encoding is known), and the el.events knob
 * the guest kernel parses back.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "cmdline.h"
#include "events.h"

#define U EL_EVSEL_USR
#define K EL_EVSEL_OS
#define UK (EL_EVSEL_USR | EL_EVSEL_OS)

static const struct el_event_cpu skylake_x = {"GenuineIntel", 6, 0x55};
static const struct el_event_cpu sapphire_rapids = {"GenuineIntel", 6, 0x8f};
static const struct el_event_cpu haswell = {"GenuineIntel", 6, 0x3f};
static const struct el_event_cpu zen3 = {"AuthenticAMD", 0x19, 0x01};
static const struct el_event_cpu zen4 = {"AuthenticAMD", 0x19, 0x11};
static const struct el_event_cpu zen5 = {"AuthenticAMD", 0x1a, 0x02};
static const struct el_event_cpu bulldozer = {"AuthenticAMD", 0x15, 0x01};
static const struct el_event_cpu hygon = {"HygonGenuine", 0x18, 0x00};
static const struct el_event_cpu other = {"CentaurHauls", 6, 0x0f};

static struct el_event_list list;
static char err[512];

static void parse_ok(const char *s)
{
	err[0] = '\0';
	cr_assert_eq(events_parse(s, &list, err, sizeof(err)), 0, "'%s' refused: %s", s, err);
}

static void parse_bad(const char *s, const char *needle1, const char *needle2)
{
	err[0] = '\0';
	cr_assert_neq(events_parse(s, &list, err, sizeof(err)), 0, "'%s' accepted", s);
	cr_expect(strstr(err, needle1), "'%s': \"%s\" does not name \"%s\"", s, err, needle1);
	if (needle2)
		cr_expect(strstr(err, needle2), "'%s': \"%s\" lacks \"%s\"", s, err, needle2);
}

static uint64_t resolve(const char *name, const struct el_event_cpu *cpu)
{
	parse_ok(name);
	cr_assert_eq(list.n, 1);
	return events_resolve(&list.ev[0], cpu);
}

Test(events, the_design_example)
{
	parse_ok("cycles,instructions:k,dTLB-load-misses:u,r01c2");
	cr_assert_eq(list.n, 4);
	cr_expect_str_eq(list.ev[0].name, "cycles");
	cr_expect_str_eq(list.ev[1].name, "instructions:k");
	cr_expect_str_eq(list.ev[2].name, "dTLB-load-misses:u");
	cr_expect_str_eq(list.ev[3].name, "r01c2");
	cr_expect_eq(list.ev[0].priv, UK, "no modifier: both levels");
	cr_expect_eq(list.ev[1].priv, K);
	cr_expect_eq(list.ev[2].priv, U);
	cr_expect_eq(list.ev[3].id, -1);
	cr_expect_eq(list.ev[3].raw, 0x01c2);
}

Test(events, none_given)
{
	parse_ok(NULL);
	cr_expect_eq(list.n, 0);
	parse_ok("");
	cr_expect_eq(list.n, 0);
}

Test(events, aliases_and_modifier_spellings)
{
	parse_ok("cpu-cycles:uk,branch-instructions:ku,r00C0:u");
	cr_expect_eq(list.ev[0].priv, UK);
	cr_expect_eq(list.ev[1].priv, UK);
	cr_expect_eq(events_resolve(&list.ev[0], &skylake_x), 0x003c | UK);
	cr_expect_eq(events_resolve(&list.ev[1], &zen3), 0x00c2 | UK);
	cr_expect_eq(events_resolve(&list.ev[2], &other), 0x00c0 | U, "raw: any CPU");
}

Test(events, errors_name_the_token_and_the_fix)
{
	parse_bad("cycles,cylces", "'cylces'", "entrylab list events");
	parse_bad("cycles:x", "'x'", ":u");
	parse_bad("cycles:G", "'G'", ":k");
	parse_bad("cycles:", "'cycles:'", ":u");
	parse_bad("cycles,", "ends with a comma", NULL);
	parse_bad("cycles,,instructions", "empty", "one comma");
	parse_bad(",cycles", "empty", NULL);
	parse_bad("rzz", "'rzz'", "rUUEE");
	parse_bad("r11223344556677889", "r11223344556677889", "rUUEE");
	parse_bad("r4100c0", "'r4100c0'", ":u/:k");   /* USR and EN bits */
	parse_bad("r1000c0:k", "'r1000c0:k'", "enable"); /* INT bit */
	parse_bad("r0", "'r0'", "counts nothing");
	parse_bad("cycles,instructions,cycles", "'cycles' is given twice", NULL);
	parse_bad("dtlb-load-misses", "'dtlb-load-misses'", "entrylab list events");
	parse_bad("an-event-name-much-longer-than-any-known-one-really", "longer than", NULL);
}

Test(events, more_events_than_counters)
{
	parse_ok("cycles,instructions,ref-cycles,branches,branch-misses,cache-references,"
		 "cache-misses,dTLB-load-misses");
	cr_expect_eq(list.n, EL_MAX_COUNTERS);
	parse_bad("cycles,instructions,ref-cycles,branches,branch-misses,cache-references,"
		  "cache-misses,dTLB-load-misses,iTLB-load-misses",
		  "more than 8 events", "another run");
}

Test(events, intel_encodings)
{
	cr_expect_eq(resolve("cycles", &skylake_x), 0x003c | UK);
	cr_expect_eq(resolve("instructions:k", &skylake_x), 0x00c0 | K);
	cr_expect_eq(resolve("ref-cycles:u", &skylake_x), 0x013c | U);
	cr_expect_eq(resolve("branches", &haswell), 0x00c4 | UK);
	cr_expect_eq(resolve("branch-misses", &haswell), 0x00c5 | UK);
	cr_expect_eq(resolve("cache-references", &haswell), 0x4f2e | UK);
	cr_expect_eq(resolve("cache-misses", &haswell), 0x412e | UK);
	cr_expect_eq(resolve("dTLB-load-misses:u", &skylake_x), 0x0e08 | U);
	cr_expect_eq(resolve("iTLB-load-misses", &skylake_x), 0x0e85 | UK);
	cr_expect_eq(resolve("dTLB-load-misses", &sapphire_rapids), 0x0e12 | UK);
	cr_expect_eq(resolve("iTLB-load-misses:k", &sapphire_rapids), 0x0e11 | K);
}

Test(events, amd_encodings)
{
	cr_expect_eq(resolve("cycles", &zen3), 0x0076 | UK);
	cr_expect_eq(resolve("instructions:u", &zen3), 0x00c0 | U);
	cr_expect_eq(resolve("branches", &zen3), 0x00c2 | UK);
	cr_expect_eq(resolve("branch-misses", &zen3), 0x00c3 | UK);
	cr_expect_eq(resolve("cache-references", &zen3), 0xff60 | UK);
	cr_expect_eq(resolve("cache-misses", &zen3), 0x0964 | UK);
	cr_expect_eq(resolve("dTLB-load-misses", &zen3), 0xf045 | UK);
	cr_expect_eq(resolve("iTLB-load-misses", &zen5), 0xff85 | UK);
	cr_expect_eq(resolve("ref-cycles", &zen4), 0x100000120ull | UK);
	cr_expect_eq(resolve("ref-cycles:k", &zen5), 0x100000120ull | K);
	cr_expect_eq(resolve("cycles", &hygon), 0x0076 | UK);
}

Test(events, unknown_models_get_no_encoding)
{
	cr_expect_eq(resolve("dTLB-load-misses", &haswell), EL_EVENT_NONE);
	cr_expect_eq(resolve("iTLB-load-misses", &haswell), EL_EVENT_NONE);
	cr_expect_eq(resolve("ref-cycles", &zen3), EL_EVENT_NONE);
	cr_expect_eq(resolve("cycles", &bulldozer), EL_EVENT_NONE);
	cr_expect_eq(resolve("instructions", &other), EL_EVENT_NONE);
	cr_expect_eq(resolve("instructions", NULL), EL_EVENT_NONE);
}

Test(events, cmdline_knob_round_trip)
{
	char buf[128] = "pti=on";
	const uint64_t cfg[] = {0x003c | UK, 0x00c0 | K, EL_EVENT_NONE, 0x100000120ull | U};
	struct el_cmdline c;

	cr_assert_eq(events_cmdline_append(buf, sizeof(buf), cfg, 4, err, sizeof(err)), 0, "%s",
		     err);
	cr_expect_str_eq(buf, "pti=on el.events=0x3003c,0x200c0,0x0,0x100010120");
	cr_assert_eq(el_cmdline_parse(buf, &c, NULL, NULL), 0, "the guest's parser takes it");
	cr_assert_eq(c.nr_events, 4);
	for (unsigned i = 0; i < 4; i++)
		cr_expect_eq(c.events[i], cfg[i], "event %u", i);
	cr_expect_eq(c.requested[EL_CFG_PTI], EL_ON);
}

Test(events, cmdline_knob_edges)
{
	char buf[40] = "";
	const uint64_t cfg[] = {0x30076, 0x30076, 0x30076, 0x30076};

	cr_assert_eq(events_cmdline_append(buf, sizeof(buf), cfg, 0, err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "", "no event, no knob");
	cr_assert_eq(events_cmdline_append(buf, sizeof(buf), cfg, 1, err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "el.events=0x30076");
	strcpy(buf, "pti=on");
	cr_expect_neq(events_cmdline_append(buf, sizeof(buf), cfg, 4, err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "pti=on", "all or nothing");
	cr_expect(strstr(err, "--append"), "%s", err);
}

Test(events, list_shows_every_name)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	static const char *const names[] = {"cycles", "instructions", "ref-cycles", "branches",
					    "branch-misses", "cache-references", "cache-misses",
					    "dTLB-load-misses", "iTLB-load-misses", "rUUEE", ":u",
					    ":k"};

	events_list(f, &skylake_x);
	fclose(f);
	for (size_t i = 0; i < EL_ARRAY_SIZE(names); i++)
		cr_expect(strstr(out, names[i]), "no %s in:\n%s", names[i], out);
	cr_expect(strstr(out, "0x0e08"), "Skylake's dTLB encoding in this-cpu:\n%s", out);
	free(out);
}
