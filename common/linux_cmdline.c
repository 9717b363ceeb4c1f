/*
 * `--guest linux`'s command line (linux_cmdline.h): the base, then the
 * user's knobs, each token checked with the splitter Linux's next_arg()
 * mirrors (el_cmdline_split), so no quoting smuggles a refused knob by.
 */
#include "array_size.h"
#include "linux_cmdline.h"

#include <stdio.h>
#include <string.h>

#include "cmdline.h"

/* Names of knobs.h that Linux 6.1 reads too (x86-64, kernel-parameters.txt). */
static const char *const linux_shared[] = {"pti", "nopti", "nopcid", "noinvpcid", "vsyscall",
					   "vdso", NULL};

/* Knobs only entrylab's kernel or entrylab itself may have, with the fix. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{"init", "it would replace entrylab's /init: run your program with --exec FILE"},
	{"rdinit", "it would replace entrylab's /init: run your program with --exec FILE"},
	{"console", "entrylab keeps Linux's console on COM1 (console=ttyS0), where the "
		    "program's output and /init's reports go: drop it"},
	{"test.crash", "it is a test hook of entrylab's kernel: drop it"},
};

struct compose_check {
	char *err;
	size_t errlen;
	int problems;
};

static int key_is(const struct el_cmdline_token *t, const char *name)
{
	return strlen(name) == t->keylen && !memcmp(t->key, name, t->keylen);
}

static int value_is(const struct el_cmdline_token *t, const char *v)
{
	return t->value && strlen(v) == t->valuelen && !memcmp(t->value, v, t->valuelen);
}

static int refuse(struct compose_check *c, const struct el_cmdline_token *t, const char *why)
{
	if (!c->problems++)
		snprintf(c->err, c->errlen, "--append '%.*s' with --guest linux: %s",
			 (int)(t->rawlen > 64 ? 64 : t->rawlen), t->raw, why);
	return -1;
}

static void user_problem(void *ctx, enum el_cmdline_user_error e, const struct el_cmdline_token *t)
{
	static const char *const why[] = {
		[EL_CMDLINE_USER_VMM_KNOB] = "el.* knobs are entrylab's own: drop it",
		[EL_CMDLINE_USER_OPEN_QUOTE] = "a quote opens and never closes: close it",
		[EL_CMDLINE_USER_SEPARATOR] = "'--' would hand the rest to /init as arguments: "
					      "give the program's arguments after the benchmark",
	};

	refuse(ctx, t, why[e]);
}

/* A knob of knobs.h: Linux's too (maybe with our spelling of a value), or ours alone. */
static void check_entrylab_knob(struct compose_check *c, const struct el_cmdline_token *t)
{
	for (size_t i = 0; i < EL_KNOB_COUNT; i++) {
		int shared = 0;

		if (!key_is(t, el_knobs[i].name))
			continue;
		for (size_t s = 0; linux_shared[s]; s++)
			shared |= !strcmp(linux_shared[s], el_knobs[i].name);
		if (!shared) {
			refuse(c, t, "the knob is entrylab's kernel's; Linux has none: drop it, "
				     "or compare on entrylab's kernel");
		} else if (key_is(t, "vsyscall") && value_is(t, "native")) {
			refuse(c, t, "Linux 6.1 has no native vsyscall page (emulate, xonly or "
				     "none)");
		} else if (key_is(t, "vdso") && (value_is(t, "on") || value_is(t, "off"))) {
			refuse(c, t, "Linux's x86-64 vdso= takes 1 or 0 (it reads 'on' as 0): "
				     "write vdso=1 or vdso=0");
		}
		return;
	}
}

static void check_token(struct compose_check *c, const struct el_cmdline_token *t)
{
	for (size_t i = 0; i < EL_ARRAY_SIZE(refused); i++)
		if (key_is(t, refused[i].name)) {
			refuse(c, t, refused[i].why);
			return;
		}
	check_entrylab_knob(c, t);
}

int linux_cmdline_compose(char *out, size_t cap, const char *user_append, char *err,
			  size_t errlen)
{
	struct compose_check c = {err, errlen, 0};
	const char *user = user_append ? user_append : "", *p = user;
	struct el_cmdline_token t;
	int n;

	el_cmdline_check_user(p, user_problem, &c);
	while (!c.problems && el_cmdline_split(&p, &t))
		check_token(&c, &t);
	if (c.problems)
		return -1;
	n = snprintf(out, cap, "%s%s%s", LINUX_CMDLINE_BASE, *user ? " " : "", user);
	if (n < 0 || (size_t)n >= cap) {
		snprintf(err, errlen, "the Linux command line would be %d bytes, more than the "
			 "%zu it may have: shorten --append", n, cap ? cap - 1 : 0);
		return -1;
	}
	return 0;
}
