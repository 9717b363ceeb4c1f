/*
 * Option tables (opt_table.h): getopt_long's arrays and --help's option
 * lines built from one table per command, and each option dispatched to
 * its row's target or handler.
 */
#include <stdlib.h>
#include <string.h>

#include "opt_table.h"
#include "parse_num.h"
#include "status.h"

/* text with each "%s" replaced by arg (no printf: the texts are data). */
static void put_subst(FILE *f, const char *text, const char *arg)
{
	for (const char *p = text; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			fputs(arg, f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
}

int el_opt_bad(const char *cmd, const char *what, const char *arg, const char *fix)
{
	fprintf(stderr, "entrylab %s: ", cmd);
	put_subst(stderr, what, arg);
	fprintf(stderr, "; %s\n", fix);
	return EL_EXIT_USAGE;
}

/* Rows a and b do the same (then they share a getopt value). */
static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_work(const struct el_opt *a, const struct el_opt *b)
{
	return a->kind == b->kind && a->off == b->off && a->val == b->val && a->fn == b->fn &&
	       !a->arg == !b->arg && same_text(a->bad, b->bad) && same_text(a->fix, b->fix) &&
	       a->min == b->min && a->max == b->max && a->stop == b->stop;
}

static int opt_value(const struct el_opt_table *t, size_t i)
{
	if (t->opts[i].short_name)
		return (unsigned char)t->opts[i].short_name;
	for (size_t k = 0; k < i; k++)
		if (!t->opts[k].short_name && t->opts[k].long_name &&
		    same_work(&t->opts[k], &t->opts[i]))
			return 256 + (int)k;
	return 256 + (int)i;
}

int el_opt_build(const struct el_opt_table *t, struct option *longopts, int *rows,
		 char *shortopts, size_t shortlen)
{
	size_t s = 0;
	int n = 0;

	if (t->n > EL_OPT_MAX || shortlen < 2 * t->n + 2)
		return -1;
	if (t->in_order)
		shortopts[s++] = '+';
	for (size_t i = 0; i < t->n; i++) {
		const struct el_opt *o = &t->opts[i];

		if (o->short_name) {
			shortopts[s++] = o->short_name;
			if (o->arg)
				shortopts[s++] = ':';
		}
		if (o->long_name) {
			longopts[n] = (struct option){o->long_name, o->arg ? required_argument
									 : no_argument,
						      NULL, opt_value(t, i)};
			rows[n++] = (int)i;
		}
	}
	shortopts[s] = '\0';
	longopts[n] = (struct option){0};
	return n;
}

/* The row getopt_long's answer c names (longindex: its array row, or -1). */
static int row_of(const struct el_opt_table *t, const int *rows, int c, int longindex)
{
	if (longindex >= 0)
		return rows[longindex];
	for (size_t i = 0; i < t->n; i++)
		if (t->opts[i].short_name && (unsigned char)t->opts[i].short_name == c)
			return (int)i;
	return -1;
}

static int number(const struct el_opt_table *t, const struct el_opt *o, const char *arg, void *at)
{
	uint64_t v;
	char *end;
	double d;

	if (o->kind == EL_OPT_SECONDS) {
		d = strtod(arg, &end);
		if (!*arg || *end || !(d > 0) || d > (double)o->max)
			return el_opt_bad(t->cmd, o->bad, arg, o->fix);
		*(double *)at = d;
		return 0;
	}
	if (el_parse_u64(arg, o->min, o->max, &v))
		return el_opt_bad(t->cmd, o->bad, arg, o->fix);
	if (o->kind == EL_OPT_U64)
		*(uint64_t *)at = v;
	else if (o->kind == EL_OPT_UINT)
		*(unsigned *)at = (unsigned)v;
	else
		*(int *)at = (int)v;
	return 0;
}

/* One option's work: 0, or the exit status after saying why. */
static int dispatch(const struct el_opt *o, const char *arg, void *obj, struct el_opt_state *st)
{
	void *at = (char *)obj + o->off;

	switch (o->kind) {
	case EL_OPT_CALL: return o->fn(obj, arg, st);
	case EL_OPT_STRING: *(const char **)at = arg; return 0;
	case EL_OPT_TRUE: *(bool *)at = true; return 0;
	case EL_OPT_SET: *(int *)at = (int)o->val; return 0;
	case EL_OPT_REFUSE: return el_opt_bad(st->t->cmd, o->bad, o->long_name, o->fix);
	case EL_OPT_HELP:
		st->t->usage(stdout);
		if (!st->t->help_returns)
			exit(0);
		return EL_OPT_HELP_SHOWN;
	default: return number(st->t, o, arg, at);
	}
}

int el_opt_parse(const struct el_opt_table *t, int argc, char **argv, void *obj,
		 struct el_opt_state *st)
{
	struct option longopts[EL_OPT_MAX + 1];
	int rows[EL_OPT_MAX], c, r, rc, longindex;
	char shortopts[2 * EL_OPT_MAX + 2];

	*st = (struct el_opt_state){.t = t, .argc = argc, .argv = argv};
	if (el_opt_build(t, longopts, rows, shortopts, sizeof(shortopts)) < 0)
		abort(); /* a table too long for its bitmap: a programming error */
	optind = 0; /* a full reset: a command may parse a second argv */
	opterr = !t->refuse;
	for (;;) {
		longindex = -1;
		if ((c = getopt_long(argc, argv, shortopts, longopts, &longindex)) == -1)
			break;
		if ((r = c == '?' ? -1 : row_of(t, rows, c, longindex)) < 0) {
			if (t->refuse)
				return t->refuse(obj, st);
			t->usage(stderr);
			return EL_EXIT_USAGE;
		}
		st->seen |= 1ull << r;
		if ((rc = dispatch(&t->opts[r], optarg, obj, st)))
			return rc;
		if (t->opts[r].stop)
			break;
	}
	return 0;
}

bool el_opt_seen(const struct el_opt_state *st, char short_name, const char *long_name)
{
	for (size_t i = 0; i < st->t->n; i++) {
		const struct el_opt *o = &st->t->opts[i];

		if (long_name ? o->long_name && !strcmp(o->long_name, long_name)
			      : o->short_name == short_name)
			return st->seen >> i & 1;
	}
	return false;
}

/* A help text: its lines after the first at the column, "%.0f" as num. */
static void put_help(FILE *f, const struct el_opt *o, unsigned col)
{
	for (const char *p = o->help; *p; p++) {
		if (*p == '\n') {
			fprintf(f, "\n%*s", (int)col, "");
		} else if (!strncmp(p, "%.0f", 4)) {
			fprintf(f, "%.0f", o->num);
			p += 3;
		} else {
			fputc(*p, f);
		}
	}
	fputc('\n', f);
}

void el_opt_help(FILE *f, const struct el_opt_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct el_opt *o = &t->opts[i];
		char left[96];
		int len, pad;

		if (!o->help)
			continue;
		if (o->synopsis)
			len = snprintf(left, sizeof(left), "%s", o->synopsis);
		else if (o->short_name)
			len = snprintf(left, sizeof(left), "-%c%s%s%s%s", o->short_name,
				       o->long_name ? ", --" : "", o->long_name ? o->long_name : "",
				       o->arg ? " " : "", o->arg ? o->arg : "");
		else
			len = snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
				       o->arg ? " " : "", o->arg ? o->arg : "");
		pad = (int)t->col - 2 - len;
		if (pad < (int)t->gap)
			pad = (int)t->gap;
		fprintf(f, "  %s%*s", left, pad, "");
		put_help(f, o, t->col);
	}
}
