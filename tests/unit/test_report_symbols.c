/*
 * `entrylab compare` of trace records: per-symbol differences against the
 * baseline (harness/report/report_symbols.c), largest first, per iteration,
 * and nothing at all for records without traces.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_symbols.h"

static void add(struct report *r, int g, const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	cr_assert(o, "bad JSON in the test: %s", text);
	report_add(r, g, o);
	json_object_put(o);
}

#define TRACE(it, syms)                                                                   \
	"{\"status\":\"ok\",\"guest\":{\"exit_status\":0},\"trace\":{\"iterations\":" #it \
	",\"symbols\":[" syms "]}}"
#define SYM(name, count) "{\"name\":\"" name "\",\"count\":" #count ",\"image\":\"kernel\"}"
#define PTI_ON_SYMS                       \
	SYM("entry_SYSCALL_64_pti", 3200) \
	"," SYM("syscall_dispatch", 1400) "," SYM("sysret_to_user_pti", 2400)

static char *print(struct report *r, unsigned top)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	report_resolve_baselines(r);
	report_print_symbols(f, r, top);
	fclose(f);
	return buf;
}

Test(report_symbols, differences_largest_first)
{
	struct report r;
	int a, b;
	char *out;

	report_init(&r);
	a = report_group(&r, "pti=off", "gettid", "host", "pti=off");
	b = report_group(&r, "pti=on", "gettid", "host", "pti=on");
	add(&r, a, TRACE(100, SYM("entry_SYSCALL_64", 3000) "," SYM("syscall_dispatch", 1400)));
	add(&r, b, TRACE(100, PTI_ON_SYMS));
	out = print(&r, 0);
	cr_expect(strstr(out, "pti=on (B) vs baseline pti=off (A)"), "%s", out);
	/* Largest difference first: +3200, -3000, +2400; the equal one only counted. */
	cr_expect(strstr(out, "entry_SYSCALL_64_pti") < strstr(out, "entry_SYSCALL_64 ") &&
			  strstr(out, "entry_SYSCALL_64 ") < strstr(out, "sysret_to_user_pti"),
		  "%s", out);
	cr_expect(strstr(out, "+3200") && strstr(out, "+32.00"),
		  "difference and per iteration:\n%s", out);
	cr_expect(strstr(out, "-3000") && strstr(out, "-30.00"), "%s", out);
	cr_expect(!strstr(out, "syscall_dispatch"), "an equal count is not a difference:\n%s", out);
	cr_expect(strstr(out, "1 symbols have the same count"), "%s", out);
	cr_expect(!strchr(out, '%'), "no percentages against absent symbols:\n%s", out);
	free(out);
	out = print(&r, 1);
	cr_expect(strstr(out, "... 2 more symbols differ"), "--top: %s", out);
	free(out);
	report_free(&r);
}

Test(report_symbols, nothing_without_traces)
{
	struct report r;
	int a, b;
	char *out;

	report_init(&r);
	a = report_group(&r, "a", "gettid", "host", "");
	b = report_group(&r, "b", "gettid", "host", "pti=on");
	add(&r, a, "{\"status\":\"ok\",\"region\":{\"tsc_ticks\":5}}");
	add(&r, b, "{\"status\":\"ok\",\"region\":{\"tsc_ticks\":6}}");
	out = print(&r, 0);
	cr_expect_str_eq(out, "");
	free(out);
	report_free(&r);
}
