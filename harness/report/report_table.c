/*
 * The report as people read it: a legend of the groups (runs, cpu, append),
 * then one block per metric with a row per group, in the shape of the
 * seeds and of `perf stat -r`: mean, "( +- x.xx% )", change vs baseline.
 * Uncounted values print as perf prints them, never as numbers.
 */
#include <math.h>
#include <string.h>

#include "report.h"

#define NAME_MIN 8
#define NAME_MAX_W 48
#define VALUE_W 16

void report_format_value(double v, int decimals, char *buf, size_t len)
{
	char digits[64], *dot;
	size_t lead, i, o = 0;

	if (v == 0 && decimals < 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (!isfinite(v) || fabs(v) >= 1e15) {
		snprintf(buf, len, "%.4g", v);
		return;
	}
	if (decimals < 0)
		decimals = fabs(v) >= 1 ? 2 : 4;
	snprintf(digits, sizeof(digits), "%.*f", decimals, v);
	dot = strchr(digits, '.');
	lead = (size_t)((dot ? dot : digits + strlen(digits)) - digits);
	for (i = 0; digits[i] && o + 2 < len; i++) {
		size_t left = lead - i; /* integer digits still to come, this one included */

		buf[o++] = digits[i];
		if (i < lead && left > 1 && (left - 1) % 3 == 0 && digits[i] != '-')
			buf[o++] = ',';
	}
	buf[o] = '\0';
}

static int name_width(const struct report *r)
{
	size_t w = NAME_MIN;

	for (unsigned i = 0; i < r->n; i++)
		if (strlen(r->g[i].name) > w)
			w = strlen(r->g[i].name);
	/* Metric titles head the name column of their block. */
	for (unsigned m = 0; m < r->nm; m++)
		if (strlen(r->m[m].label) > w)
			w = strlen(r->m[m].label);
	return (int)(w > NAME_MAX_W ? NAME_MAX_W : w);
}

static void runs_text(const struct report_group *g, char *buf, size_t len)
{
	int o = 0;

	buf[0] = '\0';
	if (g->ok)
		o += snprintf(buf + o, len - (size_t)o, "%u ok ", g->ok);
	if (g->failed)
		o += snprintf(buf + o, len - (size_t)o, "%u failed ", g->failed);
	if (g->skipped)
		o += snprintf(buf + o, len - (size_t)o, "skipped ");
	if (!o)
		snprintf(buf, len, "no runs");
	else
		buf[o - 1] = '\0';
}

static void print_legend(FILE *f, const struct report *r, int w)
{
	char runs[64];

	fprintf(f, "\n  %-*s  %-16s %-18s %s\n", w, "variant", "runs", "cpu", "append");
	for (unsigned i = 0; i < r->n; i++) {
		const struct report_group *g = &r->g[i];

		runs_text(g, runs, sizeof(runs));
		fprintf(f, "  %-*s  %-16s %-18s %s\n", w, g->name, runs, g->cpu, g->append);
		if (g->reason[0])
			fprintf(f, "  %-*s    %s: %s\n", w, "", g->failed ? "failed" : "skipped",
				g->reason);
	}
}

/* One number of decimals per block, so that a column lines up: 4 when every mean is below 1. */
static int block_decimals(const struct report *r, const struct metric *m)
{
	for (unsigned g = 0; g < r->n; g++) {
		struct report_cell c;

		report_cell_of(r, g, m, &c);
		if (c.status == MS_OK && c.runs && fabs(c.mean) >= 1)
			return 2;
	}
	return 4;
}

/* "+1,234.50" */
static void format_signed(double v, int decimals, char *buf, size_t len)
{
	if (len < 2)
		return;
	buf[0] = '+';
	report_format_value(v, decimals, buf + (v >= 0), len - 1);
}

/* The verdict of the test: "significant (p=0.003)", "within noise (p=0.41)", "no test (1 run)". */
void report_test_text(const struct report_cell *c, char *buf, size_t len)
{
	if (!c->compared)
		snprintf(buf, len, "%s", "");
	else if (!c->w.tested)
		snprintf(buf, len, "no test (<2 runs)");
	else
		snprintf(buf, len, "%s (p=%.2g)", c->w.significant ? "significant" : "within noise",
			 c->w.p);
}

static void print_change(FILE *f, const struct report_cell *c, int decimals)
{
	char abs[48], se[48], pct[48], test[64];

	if (c->no_delta == ND_BASELINE || !c->compared) {
		fprintf(f, "   %-22s", report_no_delta_text(c->no_delta));
		return;
	}
	format_signed(c->w.diff, decimals, abs, sizeof(abs));
	se[0] = '\0';
	if (c->w.tested)
		report_format_value(c->w.se, decimals, se, sizeof(se));
	fprintf(f, "   %14s %-2s %-10s", abs, se[0] ? "+-" : "", se);
	if (!isnan(c->delta))
		snprintf(pct, sizeof(pct), "%+.2f%%", c->delta);
	else
		snprintf(pct, sizeof(pct), "%s", report_no_delta_text(c->no_delta));
	fprintf(f, "  %9s", pct);
	if (!isnan(c->delta_se))
		fprintf(f, " +- %5.2f", c->delta_se);
	else
		fprintf(f, " %8s", "");
	report_test_text(c, test, sizeof(test));
	fprintf(f, "  %s", test);
}

static void print_row(FILE *f, const struct report *r, unsigned gi, const struct metric *m, int w,
		      int decimals)
{
	const struct report_group *g = &r->g[gi];
	struct report_cell c;
	char val[48];

	report_cell_of(r, gi, m, &c);
	fprintf(f, "  %-*s ", w, g->name);
	if (c.runs == 0) {
		fprintf(f, "%*s\n", VALUE_W,
			g->failed ? "<failed>" : g->skipped ? "<skipped>" : "<not run>");
		return;
	}
	if (c.status != MS_OK) {
		fprintf(f, "%*s\n", VALUE_W, metric_status_text(c.status));
		return;
	}
	report_format_value(c.mean, decimals, val, sizeof(val));
	fprintf(f, "%*s", VALUE_W, val);
	if (isnan(c.rse))
		fprintf(f, "  %13s", "");
	else
		fprintf(f, "  ( +- %5.2f%% )", c.rse);
	if (metric_kind(m) != MK_RATIO) {
		double other = metric_kind(m) == MK_PER_ITER ? c.total : c.per_iter;

		val[0] = '\0';
		if (!isnan(other))
			report_format_value(other, -1, val, sizeof(val));
		fprintf(f, " %*s", VALUE_W + 2, val);
	}
	print_change(f, &c, decimals);
	if (g->baseline != r->base && g->baseline >= 0 && (int)gi != g->baseline && c.compared)
		fprintf(f, " vs %s", r->g[g->baseline].name);
	if (c.n < c.runs)
		fprintf(f, "  (counted in %u of %u runs)", c.n, c.runs);
	fputc('\n', f);
}

static void print_block(FILE *f, const struct report *r, const struct metric *m, int w)
{
	int decimals = block_decimals(r, m);

	fprintf(f, "\n  %-*s %*s  %13s", w, m->label, VALUE_W, "mean", "+- rel.stderr");
	if (metric_kind(m) != MK_RATIO)
		fprintf(f, " %*s", VALUE_W + 2,
			metric_kind(m) == MK_PER_ITER ? "run total" : "per iter");
	fprintf(f, "   %14s %13s  %9s\n", "change", "+- stderr", "delta");
	for (unsigned g = 0; g < r->n; g++)
		print_row(f, r, g, m, w, decimals);
}

void report_print_table(FILE *f, const struct report *r)
{
	struct metric ms[2 * REPORT_MAX_METRICS];
	unsigned nm = report_all_metrics(r, NULL, 0, ms, 2 * REPORT_MAX_METRICS);
	int w = name_width(r);

	if (r->host[0])
		fprintf(f, "  host: %s\n", r->host);
	if (r->nested)
		fprintf(f, "  note: runs in the nested runner (QEMU TCG): timings are not "
			   "meaningful there, compare path lengths with `entrylab trace`\n");
	print_legend(f, r, w);
	for (unsigned m = 0; m < nm; m++)
		print_block(f, r, &ms[m], w);
	if (r->n)
		fprintf(f,
			"\n  baseline: %s; +- is the relative standard error of the mean (as perf "
			"stat -r);\n  change: difference of the means +- its standard error; "
			"test: %s\n",
			r->g[r->base].name, REPORT_TEST_NAME);
}
