/*
 * Fuzz target: the knob parser both worlds compile (common/cmdline.c) and
 * the host/guest split property (tests/unit/cmdline_property.c): a --append
 * the host accepts splits, rejoins and resplits into the same tokens, no
 * el.* knob survives the check, and the guest's line built from it holds
 * the host's tokens and the VMM's el.* values.  Also el_cmdline_next_arg
 * over init's arguments.
 */
#include "cmdline.h"
#include "cmdline_property.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_cstring(data, size);
	struct el_cmdline c;
	const char *why, *p;
	char arg[16];

	el_cmdline_parse(line, &c, NULL, NULL);
	p = c.init_args;
	while (p && el_cmdline_next_arg(&p, arg, sizeof(arg)) != -1)
		if (strlen(arg) >= sizeof(arg))
			fuzz_fail("el_cmdline_next_arg overran its buffer");
	why = cmdline_property_check(line);
	if (why)
		fuzz_fail(why);
	free(line);
	return 0;
}
