/*
 * The checks of a user's part of the guest command line (--append, an
 * experiment's append=) that keep the VMM's own knobs the VMM's: the line is
 * split with el_cmdline_split, the splitter the guest kernel parses with, so
 * no spelling (tabs, newlines, quotes) gets an el.* knob past this check and
 * into the guest.
 */
#include "cmdline.h"

/* Does the token's key start with "el." (the knobs the VMM appends)? */
static int is_vmm_knob(const struct el_cmdline_token *t)
{
	return t->keylen >= 3 && t->key[0] == 'e' && t->key[1] == 'l' && t->key[2] == '.';
}

static int report(el_cmdline_user_fn *fn, void *ctx, enum el_cmdline_user_error err,
		  const struct el_cmdline_token *t)
{
	if (fn)
		fn(ctx, err, t);
	return 1;
}

int el_cmdline_check_user(const char *cmdline, el_cmdline_user_fn *fn, void *ctx)
{
	const char *p = cmdline ? cmdline : "";
	struct el_cmdline_token t;
	int n = 0;

	while (el_cmdline_split(&p, &t)) {
		if (el_cmdline_is_separator(&t))
			n += report(fn, ctx, EL_CMDLINE_USER_SEPARATOR, &t);
		else if (is_vmm_knob(&t))
			n += report(fn, ctx, EL_CMDLINE_USER_VMM_KNOB, &t);
		if (t.open_quote)
			n += report(fn, ctx, EL_CMDLINE_USER_OPEN_QUOTE, &t);
	}
	return n;
}
