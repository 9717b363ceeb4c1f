/*
 * report.md: the title, the command that reproduces it, then the seed's
 * table(s) in the seed's shape and units: one row per variant (its label),
 * per headline metric the mean (+- relative standard error), the absolute
 * and % change against the baseline and whether it is outside the noise;
 * a sentence per comparison as the seeds write them ("8.4 s -> 6.5 s,
 * -23%", "the variance is bigger than the difference"); perf stat's form
 * for cycles and instructions totals, with IPC.  The context sections come
 * from report_md_context.c; every metric follows as the terminal table.
 */
#include <math.h>
#include <string.h>

#include "report_md.h"

#define MAX_TABLES 32

const struct report_row *report_row_of(const struct report_meta *meta, const char *variant)
{
	for (unsigned i = 0; meta && meta->rows && i < meta->nrows; i++)
		if (meta->rows[i].variant && !strcmp(meta->rows[i].variant, variant))
			return &meta->rows[i];
	return NULL;
}

const char *report_label_of(const struct report *r, const struct report_meta *meta, unsigned g)
{
	const struct report_row *row = report_row_of(meta, r->g[g].name);

	return row && row->label && row->label[0] ? row->label : r->g[g].name;
}

static const char *table_of(const struct report *r, const struct report_meta *meta, unsigned g)
{
	const struct report_row *row = report_row_of(meta, r->g[g].name);

	return row && row->table ? row->table : "";
}

void report_md_number(double v, char *buf, size_t len)
{
	double a = fabs(v);

	report_format_value(v, a >= 1e4 ? 0 : a >= 100 ? 1 : a >= 1 ? 2 : -1, buf, len);
}

/* The text of a cell without a number: "not-supported", "skipped", ... */
static const char *no_value(const struct report *r, unsigned g, const struct report_cell *c)
{
	static const char *const names[] = {
		[MS_OK] = "-",
		[MS_NOT_SUPPORTED] = "not-supported",
		[MS_NOT_COUNTED] = "not-counted",
		[MS_MISSING] = "-",
	};

	if (!c->runs)
		return r->g[g].failed ? "failed" : r->g[g].skipped ? "skipped" : "not run";
	return names[c->status];
}

void report_md_verdict(const struct report *r, const struct report_cell *c, char *buf, size_t len)
{
	if (report_all_traces(r))
		snprintf(buf, len, "exact (trace)");
	else if (!c->w.tested)
		snprintf(buf, len, "no test (fewer than 2 runs)");
	else if (c->w.significant)
		snprintf(buf, len, "yes (p=%.2g)", c->w.p);
	else
		snprintf(buf, len, "no, within noise (p=%.2g)", c->w.p);
}

static void md_cells(FILE *f, const struct report *r, unsigned g, const struct report_headline *h)
{
	struct report_cell c;
	char v[48], d[48], se[48], test[64];

	report_cell_of(r, g, &h->m, &c);
	if (c.status != MS_OK || !c.runs) {
		fprintf(f, " %s | | | |", no_value(r, g, &c));
		return;
	}
	report_md_number(c.mean, v, sizeof(v));
	if (isnan(c.rse))
		fprintf(f, " %s |", v);
	else
		fprintf(f, " %s (± %.2f%%) |", v, c.rse);
	if (!c.compared) {
		fprintf(f, " %s | | |",
			c.no_delta == ND_BASELINE ? "baseline" : report_no_delta_text(c.no_delta));
		return;
	}
	report_md_number(c.w.diff, d, sizeof(d));
	report_md_number(c.w.se, se, sizeof(se));
	fprintf(f, " %s%s%s%s |", c.w.diff >= 0 ? "+" : "", d, c.w.tested ? " ± " : "",
		c.w.tested ? se : "");
	if (isnan(c.delta))
		fprintf(f, " %s |", report_no_delta_text(c.no_delta));
	else if (isnan(c.delta_se))
		fprintf(f, " %+.2f%% |", c.delta);
	else
		fprintf(f, " %+.2f%% ± %.2f |", c.delta, c.delta_se);
	report_md_verdict(r, &c, test, sizeof(test));
	fprintf(f, " %s |", test);
}

/* "- entry text vs no global: 6,077,741 -> 7,528,609 lseeks/s, +1,450,868 lseeks/s (+23.87%), ..." */
static void md_sentence(FILE *f, const struct report *r, const struct report_meta *meta, unsigned g,
			const struct report_headline *h)
{
	struct report_cell c, b;
	char vb[48], vc[48], d[48];
	int base = r->g[g].baseline;

	report_cell_of(r, g, &h->m, &c);
	if (!c.compared)
		return;
	report_cell_of(r, (unsigned)base, &h->m, &b);
	report_md_number(b.mean, vb, sizeof(vb));
	report_md_number(c.mean, vc, sizeof(vc));
	report_md_number(c.w.diff, d, sizeof(d));
	fprintf(f, "- %s vs %s: %s %s -> %s %s, %s%s %s", report_label_of(r, meta, g),
		report_label_of(r, meta, (unsigned)base), vb, h->unit, vc, h->unit,
		c.w.diff >= 0 ? "+" : "", d, h->unit);
	if (!isnan(c.delta))
		fprintf(f, " (%+.*f%%)", fabs(c.delta) >= 10 ? 1 : 2, c.delta);
	else
		fprintf(f, " (no %%: %s)",
			c.no_delta == ND_NEAR_ZERO ? "the baseline is ~0" : "another bench");
	if (report_all_traces(r))
		fprintf(f, "; exact counts (a trace is deterministic)\n");
	else if (!c.w.tested)
		fprintf(f, "; no test: fewer than 2 runs on a side\n");
	else if (c.w.significant)
		fprintf(f, "; bigger than the run-to-run variance (p=%.2g)\n", c.w.p);
	else
		fprintf(f, "; the run-to-run variance is bigger than the difference (p=%.2g)\n",
			c.w.p);
}

/* perf stat's lines for the groups of a table: counters, then "# x insn per cycle". */
static void md_perf_block(FILE *f, const struct report *r, const struct report_meta *meta,
			  const unsigned *gs, unsigned ng, const struct report_headline *h,
			  unsigned nh)
{
	struct report tmp;
	struct metric ipc[REPORT_MAX_HEADLINE];
	unsigned nipc;

	memset(&tmp, 0, sizeof(tmp));
	for (unsigned i = 0; i < nh; i++)
		tmp.m[tmp.nm++] = h[i].m;
	if (!(nipc = report_derived_metrics(&tmp, ipc, REPORT_MAX_HEADLINE)))
		return;
	fprintf(f, "\n```\n");
	for (unsigned k = 0; k < ng; k++) {
		fprintf(f, "%s:\n", report_label_of(r, meta, gs[k]));
		for (unsigned i = 0; i < nh; i++) {
			struct report_cell c, ic;
			char v[48];

			if (h[i].m.num.base != MB_COUNTER)
				continue;
			report_cell_of(r, gs[k], &h[i].m, &c);
			if (!c.runs)
				snprintf(v, sizeof(v), "<%s>", no_value(r, gs[k], &c));
			else if (c.status != MS_OK)
				snprintf(v, sizeof(v), "%s", metric_status_text(c.status));
			else
				report_format_value(c.mean, 0, v, sizeof(v));
			fprintf(f, "  %18s      %-18s", v, h[i].unit);
			report_cell_of(r, gs[k], &ipc[0], &ic);
			if (!strncmp(h[i].m.num.counter, "instructions", 12) &&
			    ic.status == MS_OK && c.status == MS_OK)
				fprintf(f, " #  %5.2f insn per cycle ", ic.mean);
			if (c.status == MS_OK && !isnan(c.rse))
				fprintf(f, "  ( +- %5.2f%% )", c.rse);
			fputc('\n', f);
		}
	}
	fprintf(f, "```\n");
}

static void md_table(FILE *f, const struct report *r, const struct report_meta *meta,
		     const char *name, const struct report_headline *h, unsigned nh)
{
	unsigned gs[256], ng = 0;

	for (unsigned g = 0; g < r->n && ng < 256; g++)
		if (!strcmp(table_of(r, meta, g), name))
			gs[ng++] = g;
	if (name[0])
		fprintf(f, "\n### %s\n", name);
	fprintf(f, "\n| |");
	for (unsigned i = 0; i < nh; i++)
		fprintf(f, " %s%s | change | %% | outside the noise? |", h[i].unit,
			metric_kind(&h[i].m) == MK_TOTAL ? " (whole run)" : "");
	fprintf(f, "\n|---|");
	for (unsigned i = 0; i < nh; i++)
		fprintf(f, "---:|---:|---:|---|");
	fputc('\n', f);
	for (unsigned k = 0; k < ng; k++) {
		fprintf(f, "| %s%s |", report_label_of(r, meta, gs[k]),
			r->g[gs[k]].baseline == (int)gs[k] ? " (baseline)" : "");
		for (unsigned i = 0; i < nh; i++)
			md_cells(f, r, gs[k], &h[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
	for (unsigned k = 0; k < ng; k++)
		for (unsigned i = 0; i < nh; i++)
			md_sentence(f, r, meta, gs[k], &h[i]);
	md_perf_block(f, r, meta, gs, ng, h, nh);
}

static void md_tables(FILE *f, const struct report *r, const struct report_meta *meta,
		      const struct report_headline *h, unsigned nh)
{
	const char *names[MAX_TABLES];
	unsigned nt = 0;

	for (unsigned g = 0; g < r->n; g++) {
		const char *t = table_of(r, meta, g);
		unsigned k;

		for (k = 0; k < nt && strcmp(names[k], t); k++)
			;
		if (k == nt && nt < MAX_TABLES)
			names[nt++] = t;
	}
	for (unsigned k = 0; k < nt; k++)
		md_table(f, r, meta, names[k], h, nh);
}

void report_md(FILE *f, const struct report *r, const struct report_meta *meta,
	       const struct report_headline *h, unsigned nh, const struct report_files *files)
{
	const char *name = meta && meta->experiment ? meta->experiment : "report";

	fprintf(f, "# %s", name);
	if (meta && meta->seed)
		fprintf(f, " (seed %s)", meta->seed);
	fprintf(f, "\n\n");
	if (meta && meta->description)
		fprintf(f, "%s\n\n", meta->description);
	if (meta && meta->command)
		fprintf(f, "Reproduce: `%s`\n\n", meta->command);
	if (meta && meta->scale)
		fprintf(f, "Scale: `%s`%s\n\n", meta->scale,
			strcmp(meta->scale, "seed") ? " (`--scale seed` runs the seed's sizes)" : "");
	if (meta && meta->interrupted)
		fprintf(f,
			"**Interrupted**: %u of %u planned runs kept; the tables cover "
			"those.\n\n",
			meta->kept, meta->planned);
	fprintf(f,
		"## Result\n\nMean over the runs (± relative standard error of the mean, as "
		"`perf stat -r`); change = difference of the means ± its standard error; "
		"outside the noise: %s.\n",
		REPORT_TEST_NAME);
	md_tables(f, r, meta, h, nh);
	if (files && files->ncharts) {
		fprintf(f, "\nCharts:");
		for (unsigned i = 0; i < files->ncharts; i++)
			fprintf(f, " [%s](%s)", files->charts[i], files->charts[i]);
		fputc('\n', f);
	}
	report_md_caveats(f, r, meta, h, nh);
	report_md_runs(f, r, meta);
	report_md_config(f, r, meta);
	report_md_host(f, r);
	fprintf(f,
		"\n## Every metric\n\nAs `entrylab compare %s` prints it; summary.csv has the "
		"same with stddev, min, max, totals and p-values.\n\n```\n",
		meta && meta->runs_file ? meta->runs_file : "FILE");
	report_print_table(f, r);
	fprintf(f, "```\n");
}
