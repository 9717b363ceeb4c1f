/*
 * `entrylab cpuid`: one row per named feature with host, requested,
 * effective and enforcement columns.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(cpuid_cmd, .timeout = 300);

static const char *row(const char *out, const char *name)
{
	const char *s = out;
	size_t n = strlen(name);

	while ((s = strstr(s, name))) {
		if ((s == out || s[-1] == '\n') && s[n] == ' ')
			return s;
		s += n;
	}
	return NULL;
}

Test(cpuid_cmd, pge_off_is_guest_enforced)
{
	struct el_proc p;
	const char *r;
	char line[256];

	entrylab(&p, "cpuid", "--cpu", "host,-pge", NULL);
	cr_assert_eq(p.status, 0, "exit %d: %s", p.status, p.err);
	r = row(p.out, "pge");
	cr_assert(r, "no pge row:\n%s", p.out);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(r, "\n"), r);
	cr_expect(strstr(line, "CPUID.01H:EDX[13]"), "row: %s", line);
	cr_expect(strstr(line, "guest only"), "pge must be enforced by the guest only: %s", line);
	cr_expect(strstr(line, " off "), "requested/effective off missing: %s", line);
	proc_free(&p);
}
