/*
 * The report for scripts: one line per group x metric, as CSV with a
 * separator of the user's choice (-x SEP; summary.csv with ',' and a header:
 * the columns of csv_columns[], a field quoted only when it holds the
 * separator) or as JSON objects (--json).  Fields and keys are documented in
 * harness/report/README.md.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "array_size.h"
#include "report.h"

static const char *json_state(const struct report *r, unsigned gi, const struct report_cell *c)
{
	static const char *const names[] = {
		[MS_OK] = "counted", [MS_NOT_SUPPORTED] = "not-supported",
		[MS_NOT_COUNTED] = "not-counted", [MS_MISSING] = "missing",
	};
	const struct report_group *g = &r->g[gi];

	if (c->runs == 0)
		return g->failed ? "failed" : g->skipped ? "skipped" : "not-run";
	return names[c->status];
}

/* One field: quoted (RFC 4180) when it holds the separator, a quote or a newline. */
static void field(FILE *f, const char *sep, const char *text, bool first)
{
	if (!first)
		fputs(sep, f);
	if (!strstr(text, sep) && !strpbrk(text, "\"\n")) {
		fputs(text, f);
		return;
	}
	fputc('"', f);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* A number field, empty when there is none. */
static void num_field(FILE *f, const char *sep, double v)
{
	char buf[40] = "";

	if (isfinite(v))
		snprintf(buf, sizeof(buf), "%.15g", v);
	field(f, sep, buf, false);
}

static const char *const csv_columns[] = {
	"variant", "bench", "cpu", "append", "metric", "unit", "n", "mean", "stddev", "rse%",
	"min", "max", "total", "per_iter", "baseline", "abs_change", "pct_change",
	"change_stderr", "p_value", "significant", "test", "runs_ok", "runs_failed",
	"runs_skipped",
};

void report_csv_header(FILE *f, const char *sep)
{
	for (size_t i = 0; i < EL_ARRAY_SIZE(csv_columns); i++)
		field(f, sep, csv_columns[i], i == 0);
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct report *r, unsigned gi, const struct metric *m,
		    const char *sep)
{
	const struct report_group *g = &r->g[gi];
	struct report_cell c;
	char buf[64];
	bool num;

	report_cell_of(r, gi, m, &c);
	num = c.status == MS_OK && c.runs;
	field(f, sep, g->name, true);
	field(f, sep, g->bench, false);
	field(f, sep, g->cpu, false);
	field(f, sep, g->append, false);
	field(f, sep, m->text, false);
	field(f, sep, m->label, false);
	snprintf(buf, sizeof(buf), "%u", c.n);
	field(f, sep, buf, false);
	if (num)
		num_field(f, sep, c.mean);
	else
		field(f, sep, json_state(r, gi, &c), false);
	num_field(f, sep, c.stddev);
	buf[0] = '\0';
	if (!isnan(c.rse))
		snprintf(buf, sizeof(buf), "%.2f%%", c.rse);
	field(f, sep, buf, false);
	num_field(f, sep, c.min);
	num_field(f, sep, c.max);
	num_field(f, sep, c.total);
	num_field(f, sep, c.per_iter);
	field(f, sep, g->baseline >= 0 ? r->g[g->baseline].name : "", false);
	num_field(f, sep, c.compared ? c.w.diff : NAN);
	buf[0] = '\0';
	if (!isnan(c.delta))
		snprintf(buf, sizeof(buf), "%+.2f%%", c.delta);
	else if (c.compared || c.no_delta == ND_OTHER_KIND)
		snprintf(buf, sizeof(buf), "%s", report_no_delta_text(c.no_delta));
	field(f, sep, buf, false);
	num_field(f, sep, c.compared ? c.w.se : NAN);
	num_field(f, sep, c.compared ? c.w.p : NAN);
	field(f, sep, c.compared && c.w.tested ? c.w.significant ? "yes" : "no" : "-", false);
	field(f, sep, !c.compared ? "-" : c.w.tested ? "welch-t" : "none (<2 runs)", false);
	snprintf(buf, sizeof(buf), "%u", g->ok);
	field(f, sep, buf, false);
	snprintf(buf, sizeof(buf), "%u", g->failed);
	field(f, sep, buf, false);
	snprintf(buf, sizeof(buf), "%u", g->skipped);
	field(f, sep, buf, false);
	fputc('\n', f);
}

void report_csv_rows(FILE *f, const struct report *r, const char *sep, const struct metric *m,
		     unsigned nm)
{
	for (unsigned g = 0; g < r->n; g++)
		for (unsigned k = 0; k < nm; k++)
			csv_row(f, r, g, &m[k], sep);
}

void report_print_csv(FILE *f, const struct report *r, const char *sep)
{
	struct metric m[2 * REPORT_MAX_METRICS];
	unsigned n = report_all_metrics(r, NULL, 0, m, 2 * REPORT_MAX_METRICS);

	report_csv_rows(f, r, sep, m, n);
}

static struct json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

void report_print_json(FILE *f, const struct report *r)
{
	struct metric ms[2 * REPORT_MAX_METRICS];
	unsigned nm = report_all_metrics(r, NULL, 0, ms, 2 * REPORT_MAX_METRICS);

	for (unsigned g = 0; g < r->n; g++)
		for (unsigned m = 0; m < nm; m++) {
			const struct report_group *grp = &r->g[g];
			struct json_object *o = json_object_new_object(), *runs;
			struct report_cell c;
			char test[64];

			report_cell_of(r, g, &ms[m], &c);
			json_object_object_add(o, "variant", json_object_new_string(grp->name));
			json_object_object_add(o, "metric", json_object_new_string(ms[m].label));
			json_object_object_add(o, "status",
					       json_object_new_string(json_state(r, g, &c)));
			json_object_object_add(o, "mean", c.status == MS_OK ? num_or_null(c.mean)
									   : NULL);
			json_object_object_add(o, "rel_stderr", num_or_null(c.rse));
			json_object_object_add(o, "delta", num_or_null(c.delta));
			json_object_object_add(o, "delta_stderr", num_or_null(c.delta_se));
			if (c.no_delta != ND_NONE && c.no_delta != ND_NO_VALUE)
				json_object_object_add(o, "no_delta", json_object_new_string(
					report_no_delta_text(c.no_delta)));
			json_object_object_add(o, "stddev", num_or_null(c.stddev));
			json_object_object_add(o, "min", num_or_null(c.min));
			json_object_object_add(o, "max", num_or_null(c.max));
			json_object_object_add(o, "total", num_or_null(c.total));
			json_object_object_add(o, "per_iter", num_or_null(c.per_iter));
			json_object_object_add(o, "change", c.compared ? num_or_null(c.w.diff)
								       : NULL);
			json_object_object_add(o, "change_stderr", c.compared ? num_or_null(c.w.se)
									      : NULL);
			json_object_object_add(o, "p_value",
					       c.compared ? num_or_null(c.w.p) : NULL);
			json_object_object_add(o, "significant", c.compared && c.w.tested
				? json_object_new_boolean(c.w.significant) : NULL);
			report_test_text(&c, test, sizeof(test));
			json_object_object_add(o, "test", json_object_new_string(test));
			json_object_object_add(o, "values", json_object_new_int((int)c.n));
			runs = json_object_new_object();
			json_object_object_add(runs, "ok", json_object_new_int((int)grp->ok));
			json_object_object_add(runs, "failed",
					       json_object_new_int((int)grp->failed));
			json_object_object_add(runs, "skipped",
					       json_object_new_int((int)grp->skipped));
			json_object_object_add(o, "runs", runs);
			json_object_object_add(o, "baseline", grp->baseline >= 0
				? json_object_new_string(r->g[grp->baseline].name) : NULL);
			if (grp->reason[0])
				json_object_object_add(o, "reason",
						       json_object_new_string(grp->reason));
			json_object_object_add(o, "bench", json_object_new_string(grp->bench));
			json_object_object_add(o, "cpu", json_object_new_string(grp->cpu));
			json_object_object_add(o, "append", json_object_new_string(grp->append));
			fprintf(f, "%s\n",
				json_object_to_json_string_ext(
					o,
					JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		}
}
