/*
 * Option tables (cli/opt_table.h): the parser built from a table accepts
 * and refuses what it should, and every command's --help lists its options.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array_size.h"

#include "commands.h"
#include "opt_table.h"
#include "status.h"

struct toy {
	const char *name;
	bool loud;
	int mode;
	unsigned count;
	uint64_t big;
	int cpu;
	double secs;
	const char *word; /* set by the handler */
	const char *exec;
	int refused;      /* the refuse hook ran */
};

#define AT(field) .off = offsetof(struct toy, field)

static int take_word(void *obj, const char *arg, struct el_opt_state *st)
{
	if (!strcmp(arg, "no"))
		return el_opt_bad(st->t->cmd, "--word '%s' is not a word", arg, "say yes");
	((struct toy *)obj)->word = arg;
	return 0;
}

static int toy_refuse(void *obj, struct el_opt_state *st)
{
	(void)st;
	((struct toy *)obj)->refused++;
	return EL_EXIT_USAGE;
}

static void toy_usage(FILE *f);

static const struct el_opt toy_opts[] = {
	{.synopsis = "THING", .help = "a row of help alone"},
	{.short_name = 'n', .long_name = "name", .arg = "NAME", .help = "the name\nsecond line",
	 .kind = EL_OPT_STRING, AT(name)},
	{.long_name = "loud", .help = "loud", .kind = EL_OPT_TRUE, AT(loud)},
	{.long_name = "up", .synopsis = "    --up, --down", .help = "one line for two",
	 .kind = EL_OPT_SET, AT(mode), .val = 1},
	{.long_name = "down", .kind = EL_OPT_SET, AT(mode), .val = 2},
	{.short_name = 'c', .long_name = "count", .arg = "N", .help = "1..10", .kind = EL_OPT_UINT,
	 AT(count), .min = 1, .max = 10, .bad = "--count '%s' is not in 1..10", .fix = "give 3"},
	{.long_name = "big", .arg = "N", .help = "any", .kind = EL_OPT_U64, AT(big), .min = 0,
	 .max = UINT64_MAX, .bad = "--big '%s'", .fix = "a number"},
	{.long_name = "cpu", .arg = "CPU", .help = "0..7", .kind = EL_OPT_INT, AT(cpu), .min = 0,
	 .max = 7, .bad = "--cpu '%s'", .fix = "0..7"},
	{.long_name = "secs", .arg = "SEC", .help = "(default %.0f)", .num = 42.0,
	 .kind = EL_OPT_SECONDS, AT(secs), .max = 60, .bad = "--secs '%s'", .fix = "(0, 60]"},
	{.short_name = 'w', .long_name = "word", .arg = "W", .help = "a word",
	 .kind = EL_OPT_CALL, .fn = take_word},
	{.long_name = "pin", .arg = "X", .kind = EL_OPT_REFUSE, .bad = "--%s is not here",
	 .fix = "drop it"},
	{.long_name = "pine", .arg = "X", .kind = EL_OPT_REFUSE, .bad = "--%s is not here",
	 .fix = "drop it"},
	{.long_name = "internal-list", .arg = "L", .internal = true, .kind = EL_OPT_STRING,
	 AT(word)},
	{.long_name = "exec", .arg = "FILE", .help = "the rest is its", .kind = EL_OPT_STRING,
	 AT(exec), .stop = true},
	{.short_name = 'h', .long_name = "help", .kind = EL_OPT_HELP},
};

static const struct el_opt_table toy_table = {
	EL_OPT_TABLE("toy", toy_opts), .in_order = true, .col = 20, .gap = 2, .usage = toy_usage,
	.refuse = toy_refuse,
};

static void toy_usage(FILE *f)
{
	fprintf(f, "usage: toy\n");
	el_opt_help(f, &toy_table);
}

/* argv from words (argv[0] "toy"); the parse's status. */
static int toy_parse(struct toy *t, struct el_opt_state *st, const char *const *words)
{
	static char *argv[32];
	int argc = 0;

	memset(t, 0, sizeof(*t));
	argv[argc++] = "toy";
	while (*words)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	return el_opt_parse(&toy_table, argc, argv, t, st);
}

Test(opt_table, getopt_arrays_come_from_the_table)
{
	struct option lo[EL_OPT_MAX + 1];
	int rows[EL_OPT_MAX], n;
	char so[2 * EL_OPT_MAX + 2];

	n = el_opt_build(&toy_table, lo, rows, so, sizeof(so));
	cr_assert_eq(n, 14, "every named row but the help line: %d", n);
	cr_expect_str_eq(so, "+n:c:w:h");
	cr_expect_str_eq(lo[0].name, "name");
	cr_expect_eq(lo[0].has_arg, required_argument);
	cr_expect_eq(lo[0].val, 'n', "a long option with a short name answers as the short one");
	cr_expect_eq(rows[0], 1);
	cr_expect_eq(lo[1].has_arg, no_argument);
	/* rows doing the same share a value: getopt finds "--pi" not ambiguous */
	cr_expect_eq(lo[9].val, lo[10].val, "--pin and --pine refuse alike");
	cr_expect_neq(lo[2].val, lo[3].val, "--up and --down differ");
	cr_expect_eq(lo[n].name, NULL, "the array ends with a zero row");
}

Test(opt_table, accepts_each_kind)
{
	const char *const ok[] = {"-n", "a", "--loud", "--down", "-c", "10", "--big",
				  "18446744073709551615", "--cpu", "7", "--secs", "0.5", "-w",
				  "yes", "rest", "--loud", NULL};
	struct el_opt_state st;
	struct toy t;

	cr_assert_eq(toy_parse(&t, &st, ok), 0);
	cr_expect_str_eq(t.name, "a");
	cr_expect(t.loud);
	cr_expect_eq(t.mode, 2);
	cr_expect_eq(t.count, 10);
	cr_expect_eq(t.big, UINT64_MAX);
	cr_expect_eq(t.cpu, 7);
	cr_expect_eq(t.secs, 0.5);
	cr_expect_str_eq(t.word, "yes");
	cr_expect_eq(optind, 15, "in order: the first word that is no option ends them");
	cr_expect(el_opt_seen(&st, 'c', NULL) && el_opt_seen(&st, 0, "down"));
	cr_expect(!el_opt_seen(&st, 0, "up") && !el_opt_seen(&st, 0, "exec"));
}

Test(opt_table, abbreviations_and_stop)
{
	const char *const abbrev[] = {"--lo", "--na=x", "--exec", "prog", "--loud", NULL};
	struct el_opt_state st;
	struct toy t;

	cr_assert_eq(toy_parse(&t, &st, abbrev), 0);
	cr_expect(t.loud);
	cr_expect_str_eq(t.name, "x");
	cr_expect_str_eq(t.exec, "prog");
	cr_expect_eq(optind, 5, "--exec FILE stops: what follows is the program's");
}

Test(opt_table, refuses_bad_values)
{
	static const char *const bad[][3] = {
		{"-c", "0"},    {"-c", "11"},    {"--count", "x"}, {"--big", "-1"},
		{"--cpu", "8"}, {"--secs", "0"}, {"--secs", "61"}, {"--secs", ""},
		{"-w", "no"},   {"--pin", "1"},  {"--pi", "1"},
	};
	struct el_opt_state st;
	struct toy t;

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		cr_expect_eq(toy_parse(&t, &st, bad[i]), EL_EXIT_USAGE, "%s %s", bad[i][0],
			     bad[i][1]);
		cr_expect_eq(t.refused, 0, "a bad value is the row's to say");
	}
}

Test(opt_table, unknown_options_go_to_refuse)
{
	static const char *const bad[][3] = {{"--nope"}, {"-q"}, {"-c"}, {"--c", "1"}, {"--loud=1"}};
	struct el_opt_state st;
	struct toy t;

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		cr_expect_eq(toy_parse(&t, &st, bad[i]), EL_EXIT_USAGE, "%s", bad[i][0]);
		cr_expect_eq(t.refused, 1, "%s", bad[i][0]);
	}
}

/* f's text once written. */
static char *text_of(void (*usage)(FILE *f))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	usage(f);
	fclose(f);
	return buf;
}

Test(opt_table, help_lines)
{
	char *h = text_of(toy_usage);

	cr_expect(strstr(h, "\n  THING             a row of help alone\n"), "%s", h);
	cr_expect(strstr(h, "\n  -n, --name NAME   the name\n"
			    "                    second line\n"), "%s", h);
	cr_expect(strstr(h, "\n      --loud        loud\n"), "%s", h);
	cr_expect(strstr(h, "\n      --up, --down  one line for two\n"), "%s", h);
	cr_expect(strstr(h, "\n      --secs SEC    (default 42)\n"), "%s", h);
	cr_expect(strstr(h, "\n      --exec FILE   the rest is its\n"), "%s", h);
	cr_expect(!strstr(h, "--pin") && !strstr(h, "\n      --down") && !strstr(h, "internal") &&
		  !strstr(h, "--help"), "rows without help are not listed: %s", h);
	free(h);
}

/* Every option of every command is in its --help, and each table builds. */
Test(opt_table, every_command_lists_its_options)
{
	const struct el_opt_table *tables[] = {cli_run_table(),	   cli_trace_table(),
					       cmd_matrix_table(), cmd_compare_table(),
					       cmd_cpuid_table(),  cmd_engine_table()};

	for (size_t k = 0; k < EL_ARRAY_SIZE(tables); k++) {
		const struct el_opt_table *t = tables[k];
		struct option lo[EL_OPT_MAX + 1];
		int rows[EL_OPT_MAX];
		char so[2 * EL_OPT_MAX + 2], *h = text_of(t->usage);

		cr_expect_geq(el_opt_build(t, lo, rows, so, sizeof(so)), 1, "%s", t->cmd);
		for (size_t i = 0; i < t->n; i++) {
			const struct el_opt *o = &t->opts[i];
			char l[64], s[4];

			if (o->internal || o->kind == EL_OPT_REFUSE ||
			    (o->long_name && !strcmp(o->long_name, "help")))
				continue;
			snprintf(l, sizeof(l), "--%s", o->long_name ? o->long_name : "");
			snprintf(s, sizeof(s), "-%c", o->short_name);
			cr_expect((o->long_name && strstr(h, l)) || (o->short_name && strstr(h, s)) ||
				  (!o->long_name && !o->short_name),
				  "entrylab %s --help does not name %s", t->cmd, l);
			for (size_t j = 0; j < i; j++) {
				const struct el_opt *p = &t->opts[j];

				cr_expect(!o->long_name || !p->long_name ||
					  strcmp(o->long_name, p->long_name), "%s: --%s twice",
					  t->cmd, o->long_name);
				cr_expect(!o->short_name || o->short_name != p->short_name,
					  "%s: -%c twice", t->cmd, o->short_name);
			}
		}
		free(h);
	}
}
