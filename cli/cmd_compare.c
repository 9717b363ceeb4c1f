/*
 * `entrylab compare FILE...`: the report of `entrylab matrix`, from record
 * files.  Records group by experiment variant when they carry one, else by
 * (bench, request.cpu, request.append).  A line that is not a record is
 * reported as FILE:LINE and skipped; the rest still count (compare_load.c).
 * --save DIR writes the saved report too (compare_save.c).
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare_load.h"
#include "compare_save.h"
#include "opt_table.h"
#include "report.h"
#include "report_symbols.h"
#include "status.h"

struct compare_opts {
	const char *csv_sep, *baseline, *metrics;
	const char *save, *experiment; /* --save DIR, --experiment FILE|NAME */
	bool json;
};

static int choose_baseline(struct report *r, const char *want)
{
	if (!want)
		return 0;
	if ((r->base = report_baseline_find(r, want)) >= 0)
		return 0;
	fprintf(stderr, "entrylab compare: --baseline %s names no group; give a number 1..%u or "
			"one of:", want, r->n);
	for (unsigned i = 0; i < r->n; i++)
		fprintf(stderr, " '%s'", r->g[i].name);
	fputc('\n', stderr);
	return EL_EXIT_USAGE;
}

static int choose_metrics(struct report *r, const char *list)
{
	char err[256];

	if (!report_metric_list(r, list, err, sizeof(err)))
		return 0;
	fprintf(stderr, "entrylab compare: --metrics: %s\n", err);
	return EL_EXIT_USAGE;
}

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: entrylab compare [--json | -x SEP] [--baseline NAME|N] [--metrics LIST]\n"
		   "                        [--save DIR [--experiment FILE|NAME]] FILE...\n"
		   "  groups by experiment variant, else by bench, cpu, append;\n"
		   "  --save DIR also writes report.md, summary.csv and SVG charts there\n"
		   "  (shaped by the experiment the records name, or --experiment);\n"
		   "  metrics: ns ticks syscalls page_faults interrupts exits EVENT\n"
		   "  per iteration, X/run (a total), or ratios A/B such as ns/page_faults;\n"
		   "  changes: difference +- its stderr and %% (none against a baseline ~0),\n"
		   "  Welch's t-test, two-sided, significant at p < 0.05;\n"
		   "  trace records: also per-symbol differences against the baseline\n");
}

#define AT(field) .off = offsetof(struct compare_opts, field)

/* The options; --help describes them in a paragraph of its own (compare_usage). */
static const struct el_opt compare_opts_table[] = {
	{.long_name = "json", .kind = EL_OPT_TRUE, AT(json)},
	{.short_name = 'x', .long_name = "field-separator", .arg = "SEP", .kind = EL_OPT_STRING,
	 AT(csv_sep)},
	{.long_name = "baseline", .arg = "NAME|N", .kind = EL_OPT_STRING, AT(baseline)},
	{.long_name = "metrics", .arg = "LIST", .kind = EL_OPT_STRING, AT(metrics)},
	{.long_name = "save", .arg = "DIR", .kind = EL_OPT_STRING, AT(save)},
	{.long_name = "experiment", .arg = "FILE|NAME", .kind = EL_OPT_STRING, AT(experiment)},
	{.short_name = 'h', .long_name = "help", .kind = EL_OPT_HELP},
};

static const struct el_opt_table compare_table = {
	EL_OPT_TABLE("compare", compare_opts_table), .usage = compare_usage,
};

const struct el_opt_table *cmd_compare_table(void)
{
	return &compare_table;
}

static int parse_options(int argc, char **argv, struct compare_opts *o)
{
	struct el_opt_state st;
	int rc;

	if ((rc = el_opt_parse(&compare_table, argc, argv, o, &st)))
		return rc;
	if (optind == argc) {
		fprintf(stderr, "entrylab compare: give one or more record files "
				"(results/*.jsonl)\n");
		return EL_EXIT_USAGE;
	}
	if (o->experiment && !o->save) {
		fprintf(stderr, "entrylab compare: --experiment shapes the saved report; add "
				"--save DIR or drop it\n");
		return EL_EXIT_USAGE;
	}
	if (o->json && o->csv_sep) {
		fprintf(stderr, "entrylab compare: --json and -x both given; choose one output "
				"format\n");
		return EL_EXIT_USAGE;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {0};
	struct json_object *all;
	struct report r;
	unsigned bad = 0;
	int rc, unreadable = 0;

	if ((rc = parse_options(argc, argv, &o)))
		return rc;
	all = json_object_new_array();
	for (int i = optind; i < argc; i++)
		unreadable += compare_load_file(argv[i], all, &bad) < 0;
	report_init(&r);
	compare_build_groups(&r, all, !o.baseline);
	if (!r.n) {
		fprintf(stderr, "entrylab compare: no records in the file(s) given\n");
		rc = EL_EXIT_USAGE;
	} else if (!(rc = choose_baseline(&r, o.baseline)) &&
		   !(rc = choose_metrics(&r, o.metrics))) {
		report_resolve_baselines(&r);
		if (o.json) {
			report_print_json(stdout, &r);
		} else if (o.csv_sep) {
			report_print_csv(stdout, &r, o.csv_sep);
		} else {
			printf("entrylab compare: %zu record(s) in %u group(s) from %d file(s)",
			       json_object_array_length(all), r.n, argc - optind);
			if (bad)
				printf(", %u malformed line(s) skipped", bad);
			printf("\n");
			report_print_table(stdout, &r);
			report_print_symbols(stdout, &r, 0);
		}
		rc = unreadable ? EL_EXIT_USAGE : 0;
		if (o.save && !rc)
			rc = compare_save(&r, o.save, o.experiment, argc, argv);
	}
	report_free(&r);
	json_object_put(all);
	return rc;
}
