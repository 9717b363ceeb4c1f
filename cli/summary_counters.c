/*
 * The counters and region quantities of `entrylab run` as perf stat prints
 * them (summary.h): each accumulated over the runs (mean, perf's noise, min,
 * max) and printed as a table line, a -x CSV row or a --json line.  Pure:
 * no run, no record, so the unit tests check every format.
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

/* The table line's text, padded where more follows; summary_row_table trims the end. */
static void table_line(char *b, size_t len, const struct summary_row *r, bool repeated,
		       unsigned runs)
{
	int mpad = (int)strlen(r->metric_unit) < 24 ? 24 - (int)strlen(r->metric_unit) : 0;
	char num[48], lo[48], hi[48];
	size_t o;

	if (r->metric_only) {
		o = (size_t)snprintf(b, len, "  %18s %-4s %-20s # %10.2f %s", "", "", "",
				     r->metric.mean, r->metric_unit);
		if (repeated && r->metric.n > 1 && o < len)
			snprintf(b + o, len - o, "%*s ( +- %5.2f%% )", mpad, "",
				 summary_acc_rse(&r->metric));
		return;
	}
	if (have_value(r))
		summary_grouped(num, sizeof(num), r->val.mean);
	else
		snprintf(num, sizeof(num), "%s", placeholder[r->status]);
	o = (size_t)snprintf(b, len, "  %18s %-4s %-20s", num, r->unit, r->event);
	if (r->metric.n && o < len)
		o += (size_t)snprintf(b + o, len - o, " # %10.2f %s", r->metric.mean,
				      r->metric_unit);
	else
		mpad = 37;
	if (have_value(r) && repeated && o < len) {
		summary_grouped(lo, sizeof(lo), r->val.min);
		summary_grouped(hi, sizeof(hi), r->val.max);
		o += (size_t)snprintf(b + o, len - o, "%*s ( +- %5.2f%% )  min %s  max %s", mpad,
				      "", summary_acc_rse(&r->val), lo, hi);
	}
	if (have_value(r) && r->val.n < runs && o < len)
		snprintf(b + o, len - o, "  (in %u of %u runs)", r->val.n, runs);
}

void summary_row_table(FILE *f, const struct summary_row *r, bool repeated, unsigned runs)
{
	char line[512];
	size_t n;

	if (r->metric_only && !r->metric.n)
		return;
	table_line(line, sizeof(line), r, repeated, runs);
	for (n = strlen(line); n && line[n - 1] == ' '; n--)
		;
	fprintf(f, "%.*s\n", (int)n, line);
}
