/*
 * --append validation with the guest kernel's own command-line parser
 * (common/cmdline.c), so host and guest can never disagree.
 */
#include <stdio.h>
#include <string.h>

#include "request.h"
#include "cmdline.h"

static void print_knobs(void)
{
	size_t i;

	fprintf(stderr, "  knobs:");
	for (i = 0; i < EL_KNOB_COUNT; i++)
		fprintf(stderr, " %s", el_knobs[i].name);
	for (i = 0; el_cmdline_other_knobs[i]; i++)
		fprintf(stderr, " %s", el_cmdline_other_knobs[i]);
	fprintf(stderr, "\n  (entrylab list knobs explains each)\n");
}

static const struct el_knob_desc *knob_find(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < EL_KNOB_COUNT; i++)
		if (strlen(el_knobs[i].name) == len && !memcmp(el_knobs[i].name, key, len))
			return &el_knobs[i];
	return NULL;
}

static void print_values(const struct el_knob_desc *k)
{
	const char *const *v;

	if (!k || k->flag_value >= 0)
		return;
	fprintf(stderr, "  %s takes one of:", k->name);
	for (v = el_config[k->item].values; *v; v++)
		fprintf(stderr, " %s", *v);
	fprintf(stderr, "\n");
}

static void on_error(void *ctx, enum el_cmdline_error err, const char *key, size_t keylen,
		     const char *value, size_t valuelen)
{
	const struct el_knob_desc *k = knob_find(key, keylen);
	int *unknown = ctx;

	switch (err) {
	case EL_CMDLINE_UNKNOWN_KNOB:
		fprintf(stderr, "entrylab: --append: unknown knob '%.*s'\n", (int)keylen, key);
		*unknown = 1;
		break;
	case EL_CMDLINE_BAD_VALUE:
		fprintf(stderr, "entrylab: --append: %.*s=%.*s: '%.*s' is not a value of %.*s\n",
			(int)keylen, key, (int)valuelen, value, (int)valuelen, value, (int)keylen,
			key);
		print_values(k);
		break;
	case EL_CMDLINE_MISSING_VALUE:
		fprintf(stderr, "entrylab: --append: %.*s needs a value (%.*s=VALUE)\n",
			(int)keylen, key, (int)keylen, key);
		print_values(k);
		break;
	case EL_CMDLINE_UNEXPECTED_VALUE:
		fprintf(stderr, "entrylab: --append: %.*s is a flag and takes no value; write it bare\n",
			(int)keylen, key);
		break;
	case EL_CMDLINE_TOO_LONG:
		fprintf(stderr, "entrylab: --append: the value of %.*s is too long\n", (int)keylen,
			key);
		break;
	}
}

/* The messages of el_cmdline_check_user's problems, by enum el_cmdline_user_error. */
static const char *const user_errors[] = {
	[EL_CMDLINE_USER_VMM_KNOB] = "is set by entrylab itself; drop it (use -e for events)",
	[EL_CMDLINE_USER_OPEN_QUOTE] = "opens a '\"' that nothing closes; close it",
	[EL_CMDLINE_USER_SEPARATOR] = "would hand the rest of the line to init; give the "
				      "program's arguments after the program instead",
};

static void on_user_error(void *ctx, enum el_cmdline_user_error err,
			  const struct el_cmdline_token *t)
{
	(void)ctx;
	fprintf(stderr, "entrylab: --append: '%.*s' %s\n", (int)t->rawlen, t->raw,
		user_errors[err]);
}

int request_check_append(const char *append)
{
	struct el_cmdline parsed;
	int unknown = 0;
	int n = el_cmdline_parse(append, &parsed, on_error, &unknown);

	if (unknown)
		print_knobs();
	/*
	 * el.* knobs carry what the VMM measured (TSC rate, time, events): not
	 * the user's to set.  Split as the guest splits, so no tab or quote
	 * hides one.
	 */
	return n + el_cmdline_check_user(append, on_user_error, NULL);
}
