/*
 * One line of `entrylab run`'s perf-stat-like output (summary.h): a
 * quantity accumulated over the runs (mean, perf's noise, min, max) and
 * printed as the table, a -x CSV row or a --json line.  Pure: no run,
 * no record, so the unit tests check every format.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "summary.h"

static const char *const placeholder[] = {
	[EL_COUNTER_COUNTED] = "",
	[EL_COUNTER_NOT_SUPPORTED] = "<not supported>",
	[EL_COUNTER_NOT_COUNTED] = "<not counted>",
};

void summary_acc_add(struct summary_acc *a, double v)
{
	double d = v - a->mean;

	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

double summary_acc_stderr(const struct summary_acc *a)
{
	return a->n < 2 ? 0.0 : sqrt(a->m2 / (a->n - 1) / a->n);
}

double summary_acc_rse(const struct summary_acc *a)
{
	return a->mean != 0.0 ? 100.0 * summary_acc_stderr(a) / fabs(a->mean) : 0.0;
}

/* perf's choice: whole numbers without decimals, the rest with two. */
static void num_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f", floor(v) == v ? 0 : 2, v);
}

/* 1234567.5 -> "1,234,567.50" (perf's big_num for the table). */
void summary_grouped(char *buf, size_t len, double v)
{
	char digits[48];
	int n, o = 0, intlen;

	num_text(digits, sizeof(digits), v);
	n = (int)strlen(digits);
	intlen = (int)strcspn(digits, ".");
	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && i < intlen && digits[i - 1] != '-' && (intlen - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static bool have_value(const struct summary_row *r)
{
	return r->val.n > 0;
}

void summary_row_csv(FILE *f, const struct summary_row *r, const char *s, bool repeated)
{
	char num[48];

	if (r->metric_only) {
		/* perf: "additional metrics may be printed with all earlier fields being empty" */
		fprintf(f, "%s%s%s%s%s%s", s, s, repeated ? s : "", s, s, s);
		if (r->metric.n)
			fprintf(f, "%.2f", r->metric.mean);
		fprintf(f, "%s%s\n", s, r->metric.n ? r->metric_unit : "");
		return;
	}
	if (have_value(r))
		num_text(num, sizeof(num), r->val.mean);
	else
		snprintf(num, sizeof(num), "%s", placeholder[r->status]);
	fprintf(f, "%s%s%s%s%s", num, s, r->unit, s, r->event);
	if (repeated)
		fprintf(f, "%s%.2f%%", s, summary_acc_rse(&r->val));
	fprintf(f, "%s%.0f%s%.2f%s", s, have_value(r) ? r->runtime.mean : 0.0, s, 100.0, s);
	if (r->metric.n)
		fprintf(f, "%.2f", r->metric.mean);
	fprintf(f, "%s%s\n", s, r->metric.n ? r->metric_unit : "");
}

/* A number as perf prints it: whole, or with two decimals; null when there is none. */
static struct json_object *num_or_null(bool have, double v)
{
	char text[48];

	if (!have)
		return NULL;
	if (floor(v) == v && fabs(v) < 9e15)
		return json_object_new_int64((int64_t)v);
	snprintf(text, sizeof(text), "%.2f", v);
	return json_object_new_double_s(v, text);
}

void summary_row_json(FILE *f, const struct summary_row *r, bool repeated)
{
	struct json_object *o = json_object_new_object();
	char num[48];

	if (r->metric_only) {
		json_object_object_add(o, "metric-value", num_or_null(r->metric.n, r->metric.mean));
		json_object_object_add(o, "metric-unit", json_object_new_string(r->metric_unit));
		json_object_object_add(o, "runs", json_object_new_int((int)r->metric.n));
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		return;
	}
	if (have_value(r))
		num_text(num, sizeof(num), r->val.mean);
	else
		snprintf(num, sizeof(num), "%s", placeholder[r->status]);
	json_object_object_add(o, "counter-value", json_object_new_string(num));
	json_object_object_add(o, "unit", json_object_new_string(r->unit));
	json_object_object_add(o, "event", json_object_new_string(r->event));
	if (repeated)
		json_object_object_add(o, "variance",
				       num_or_null(have_value(r), summary_acc_rse(&r->val)));
	json_object_object_add(o, "event-runtime",
			       json_object_new_int64(have_value(r) ? (int64_t)r->runtime.mean : 0));
	json_object_object_add(o, "pcnt-running", json_object_new_double_s(100.0, "100.00"));
	json_object_object_add(o, "metric-value", num_or_null(r->metric.n, r->metric.mean));
	json_object_object_add(o, "metric-unit",
			       json_object_new_string(r->metric.n ? r->metric_unit : ""));
	json_object_object_add(o, "runs", json_object_new_int((int)r->val.n));
	json_object_object_add(o, "min", num_or_null(have_value(r), r->val.min));
	json_object_object_add(o, "max", num_or_null(have_value(r), r->val.max));
	fprintf(f, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

void summary_row_table(FILE *f, const struct summary_row *r, bool repeated, unsigned runs)
{
	char num[48], lo[48], hi[48];
	int pad;

	if (r->metric_only) {
		if (!r->metric.n)
			return;
		fprintf(f, "  %18s %-4s %-20s # %10.2f %s", "", "", "", r->metric.mean,
			r->metric_unit);
		if (repeated && r->metric.n > 1)
			fprintf(f, "%*s ( +- %5.2f%% )",
				(int)strlen(r->metric_unit) < 24 ? 24 - (int)strlen(r->metric_unit)
								 : 0,
				"", summary_acc_rse(&r->metric));
		fputc('\n', f);
		return;
	}
	if (have_value(r))
		summary_grouped(num, sizeof(num), r->val.mean);
	else
		snprintf(num, sizeof(num), "%s", placeholder[r->status]);
	fprintf(f, "  %18s %-4s %-20s", num, r->unit, r->event);
	pad = (int)strlen(r->metric_unit) < 24 ? 24 - (int)strlen(r->metric_unit) : 0;
	if (r->metric.n)
		fprintf(f, " # %10.2f %s", r->metric.mean, r->metric_unit);
	else
		pad = 37;
	if (have_value(r) && repeated) {
		summary_grouped(lo, sizeof(lo), r->val.min);
		summary_grouped(hi, sizeof(hi), r->val.max);
		fprintf(f, "%*s ( +- %5.2f%% )  min %s  max %s", pad, "", summary_acc_rse(&r->val),
			lo, hi);
	}
	if (have_value(r) && r->val.n < runs)
		fprintf(f, "  (in %u of %u runs)", r->val.n, runs);
	fputc('\n', f);
}
