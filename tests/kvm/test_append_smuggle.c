/*
 * `entrylab run --append` refuses the VMM's own el.* knobs however the user
 * separates or quotes them (tabs, newlines, quotes), and lines that would
 * swallow the knobs the VMM appends (an unclosed quote, `--`): exit 120
 * before anything boots, the offending token named.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "harness.h"

static void expect_refused(const char *append, const char *named)
{
	struct el_proc p;

	entrylab(&p, "run", "--append", append, NULL);
	cr_expect_eq(p.status, 120, "--append '%s': exit %d\n%s", append, p.status, p.err);
	cr_expect(strstr(p.err, named), "--append '%s': the message must name '%s': %s", append,
		  named, p.err);
	proc_free(&p);
}

Test(append, vmm_knobs_refused_however_separated)
{
	expect_refused("\t\tel.events=0x3c", "el.events=0x3c' is set by entrylab itself");
	expect_refused("pti=on\nel.tsc_khz=1", "el.tsc_khz=1' is set by entrylab itself");
	expect_refused("\"el.epoch_ns=1\"", "is set by entrylab itself");
}

Test(append, lines_swallowing_the_vmm_knobs_refused)
{
	expect_refused("pti=on \"", "nothing closes");
	expect_refused("pti=on -- x", "hand the rest of the line to init");
}
