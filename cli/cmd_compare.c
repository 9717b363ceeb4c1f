/*
 * `entrylab compare FILE...`: the report of `entrylab matrix`, from record
 * files.  Records group by experiment variant when they carry one, else by
 * (bench, request.cpu, request.append).  A line that is not a record is
 * reported as FILE:LINE and skipped; the rest still count.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare_save.h"
#include "report.h"
#include "status.h"

enum { OPT_JSON = 256, OPT_BASELINE, OPT_METRICS, OPT_SAVE, OPT_EXPERIMENT };

struct compare_opts {
	const char *csv_sep, *baseline, *metrics;
	const char *save, *experiment; /* --save DIR, --experiment FILE|NAME */
	bool json;
};

static const char *jstring(struct json_object *o, const char *a, const char *b)
{
	if (!json_object_object_get_ex(o, a, &o) || (b && !json_object_object_get_ex(o, b, &o)))
		return NULL;
	return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

static struct json_object *parse_line(const char *line, size_t len, char *why, size_t wlen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;

	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    (size_t)json_tokener_get_parse_end(tok) != len) {
		enum json_tokener_error e =
			tok ? json_tokener_get_error(tok) : json_tokener_error_depth;

		snprintf(why, wlen, "not a JSON object on one line (%s)",
			 e == json_tokener_continue ? "it ends inside the object: a torn line?"
			 : json_tokener_error_desc(e));
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object) || !jstring(o, "status", NULL)) {
		snprintf(why, wlen, "not an entrylab record (no \"status\")");
		json_object_put(o);
		o = NULL;
	}
	if (tok)
		json_tokener_free(tok);
	return o;
}

/* Appends the file's records to all; -1 if it cannot be read. */
static int load_file(const char *path, struct json_object *all, unsigned *bad)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, why[160];
	size_t cap = 0;
	ssize_t n;
	int lineno = 0;

	if (!f) {
		fprintf(stderr, "entrylab compare: cannot read %s: %s; give record files such as "
				"results/*.jsonl\n", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct json_object *rec;

		lineno++;
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (!n)
			continue;
		rec = parse_line(line, (size_t)n, why, sizeof(why));
		if (rec) {
			json_object_array_add(all, rec);
		} else {
			fprintf(stderr, "%s:%d: %s; skipped\n", path, lineno, why);
			(*bad)++;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

/* Group label: the variant, or the bench with its non-default cpu and append. */
static void group_label(struct json_object *rec, bool one_exp, char *buf, size_t len)
{
	const char *exp = jstring(rec, "experiment", "name"),
		   *var = jstring(rec, "experiment", "variant");
	const char *bench = jstring(rec, "bench", "name"), *cpu = jstring(rec, "request", "cpu");
	const char *append = jstring(rec, "request", "append");

	if (exp && var) {
		snprintf(buf, len, "%s%s%s", one_exp ? "" : exp, one_exp ? "" : "/", var);
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s", bench ? bench : "boot",
		 cpu && strcmp(cpu, "host") ? " " : "", cpu && strcmp(cpu, "host") ? cpu : "",
		 append && *append ? " " : "", append ? append : "");
}

static void build_groups(struct report *r, struct json_object *all, const struct compare_opts *o)
{
	size_t n = json_object_array_length(all);
	const char *first_exp = NULL;
	bool one_exp = true;
	char label[256];

	for (size_t i = 0; i < n; i++) {
		const char *e = jstring(json_object_array_get_idx(all, i), "experiment", "name");

		if (e && first_exp && strcmp(e, first_exp))
			one_exp = false;
		first_exp = first_exp ? first_exp : e;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *rec = json_object_array_get_idx(all, i);
		int g;

		group_label(rec, one_exp, label, sizeof(label));
		g = report_find(r, label);
		if (g < 0)
			g = report_group(r, label, jstring(rec, "bench", "name"),
					 jstring(rec, "request", "cpu"),
					 jstring(rec, "request", "append"));
		if (g >= 0)
			report_add(r, g, rec);
	}
	/* The matrix's own baselines, unless --baseline names one for all. */
	for (size_t i = 0; i < n && !o->baseline; i++) {
		struct json_object *rec = json_object_array_get_idx(all, i);
		const char *base = jstring(rec, "experiment", "baseline");
		int g, b;

		group_label(rec, one_exp, label, sizeof(label));
		g = report_find(r, label);
		if (!base || g < 0 || r->g[g].baseline >= 0)
			continue;
		if (!one_exp)
			snprintf(label, sizeof(label), "%s/%s", jstring(rec, "experiment", "name"),
				 base);
		else
			snprintf(label, sizeof(label), "%s", base);
		b = report_find(r, label);
		r->g[g].baseline = b;
		if (i == 0 && b >= 0)
			r->base = b;
	}
}

static int choose_baseline(struct report *r, const char *want)
{
	char *end;
	long k;

	if (!want)
		return 0;
	r->base = report_find(r, want);
	k = strtol(want, &end, 10);
	if (r->base < 0 && *want && !*end && k >= 1 && k <= (long)r->n)
		r->base = (int)k - 1;
	if (r->base >= 0)
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
	char *copy, *tok, *save, err[256];
	int rc = 0;

	if (!list) {
		report_default_metrics(r);
		return 0;
	}
	copy = strdup(list);
	for (tok = copy ? strtok_r(copy, ", ", &save) : NULL; tok && !rc;
	     tok = strtok_r(NULL, ", ", &save))
		if (report_metric(r, tok, NULL, 0, err, sizeof(err))) {
			fprintf(stderr, "entrylab compare: --metrics: %s\n", err);
			rc = EL_EXIT_USAGE;
		}
	free(copy);
	return rc;
}

static int parse_options(int argc, char **argv, struct compare_opts *o)
{
	static const struct option opts[] = {
		{"json", no_argument, 0, OPT_JSON},
		{"field-separator", required_argument, 0, 'x'},
		{"baseline", required_argument, 0, OPT_BASELINE},
		{"metrics", required_argument, 0, OPT_METRICS},
		{"save", required_argument, 0, OPT_SAVE},
		{"experiment", required_argument, 0, OPT_EXPERIMENT},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "x:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'x': o->csv_sep = optarg; break;
		case OPT_JSON: o->json = true; break;
		case OPT_BASELINE: o->baseline = optarg; break;
		case OPT_METRICS: o->metrics = optarg; break;
		case OPT_SAVE: o->save = optarg; break;
		case OPT_EXPERIMENT: o->experiment = optarg; break;
		case 'h':
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"usage: entrylab compare [--json | -x SEP] [--baseline NAME|N] "
				"[--metrics LIST]\n"
				"                        [--save DIR [--experiment FILE|NAME]] FILE...\n"
				"  groups by experiment variant, else by bench, cpu, append;\n"
				"  --save DIR also writes report.md, summary.csv and SVG charts there\n"
				"  (shaped by the experiment the records name, or --experiment);\n"
				"  metrics: ns ticks syscalls page_faults interrupts exits EVENT\n"
				"  per iteration, or ratios A/B such as ns/page_faults\n");
			if (opt == 'h')
				exit(0);
			return EL_EXIT_USAGE;
		}
	}
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
		unreadable += load_file(argv[i], all, &bad) < 0;
	report_init(&r);
	build_groups(&r, all, &o);
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
		}
		rc = unreadable ? EL_EXIT_USAGE : 0;
		if (o.save && !rc)
			rc = compare_save(&r, o.save, o.experiment, argc, argv);
	}
	report_free(&r);
	json_object_put(all);
	return rc;
}
