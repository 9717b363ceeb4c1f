/*
 * The report for scripts: one line per group x metric, as CSV with a
 * separator of the user's choice (-x SEP, perf's convention: unquoted, the
 * variance as "x.xx%") or as JSON objects (--json).  Fields and keys are
 * documented in harness/experiments/README.md.
 */
#include <json-c/json.h>
#include <math.h>

#include "report.h"

/* What a cell is when it has no number: "<not supported>", "<skipped>", ... */
static const char *cell_state(const struct report *r, unsigned gi, const struct report_cell *c)
{
	const struct report_group *g = &r->g[gi];

	if (c->runs == 0)
		return g->skipped && !g->failed ? "<skipped>" : "<failed>";
	return metric_status_text(c->status);
}

static const char *json_state(const struct report *r, unsigned gi, const struct report_cell *c)
{
	static const char *const names[] = {
		[MS_OK] = "counted", [MS_NOT_SUPPORTED] = "not-supported",
		[MS_NOT_COUNTED] = "not-counted", [MS_MISSING] = "missing",
	};
	const struct report_group *g = &r->g[gi];

	if (c->runs == 0)
		return g->skipped && !g->failed ? "skipped" : "failed";
	return names[c->status];
}

void report_print_csv(FILE *f, const struct report *r, const char *sep)
{
	for (unsigned g = 0; g < r->n; g++)
		for (unsigned m = 0; m < r->nm; m++) {
			const struct report_group *grp = &r->g[g];
			struct report_cell c;

			report_cell(r, g, m, &c);
			fprintf(f, "%s%s%s%s", grp->name, sep, r->m[m].label, sep);
			if (c.status == MS_OK && c.runs)
				fprintf(f, "%.15g", c.mean);
			else
				fprintf(f, "%s", cell_state(r, g, &c));
			fprintf(f, "%s", sep);
			if (!isnan(c.rse))
				fprintf(f, "%.2f%%", c.rse);
			fprintf(f, "%s", sep);
			if (!isnan(c.delta))
				fprintf(f, "%+.2f%%", c.delta);
			fprintf(f, "%s%u%s%u%s%u%s%s\n", sep, grp->ok, sep, grp->failed, sep,
				grp->skipped, sep,
				grp->baseline >= 0 ? r->g[grp->baseline].name : "");
		}
}

static struct json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

void report_print_json(FILE *f, const struct report *r)
{
	for (unsigned g = 0; g < r->n; g++)
		for (unsigned m = 0; m < r->nm; m++) {
			const struct report_group *grp = &r->g[g];
			struct json_object *o = json_object_new_object(), *runs;
			struct report_cell c;

			report_cell(r, g, m, &c);
			json_object_object_add(o, "variant", json_object_new_string(grp->name));
			json_object_object_add(o, "metric", json_object_new_string(r->m[m].label));
			json_object_object_add(o, "status",
					       json_object_new_string(json_state(r, g, &c)));
			json_object_object_add(o, "mean", c.status == MS_OK ? num_or_null(c.mean)
									   : NULL);
			json_object_object_add(o, "rel_stderr", num_or_null(c.rse));
			json_object_object_add(o, "delta", num_or_null(c.delta));
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
