/*
 * One cell of a report (report.h): the statistics of one group's runs for
 * one metric, and the comparison with the group's baseline: the absolute
 * change with its standard error, Welch's t-test, and the % change unless
 * the baseline is another kind of quantity or ~0.  Also the IPC columns
 * derived from cycles and instructions columns.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

const char *report_no_delta_text(enum report_no_delta nd)
{
	static const char *const text[] = {
		[ND_NONE] = "",
		[ND_BASELINE] = "baseline",
		[ND_NO_BASE] = "-",
		[ND_OTHER_KIND] = "n/a (other bench)",
		[ND_NEAR_ZERO] = "n/a (baseline ~0)",
		[ND_NO_VALUE] = "-",
	};

	return text[nd];
}

/* The mean of the runs' totals (or per-iteration values): NaN unless every counted run has one. */
static double other_mean(const struct metric *m, struct json_object *runs, unsigned n_ok)
{
	struct stats s;

	stats_init(&s);
	for (size_t k = 0; k < json_object_array_length(runs); k++) {
		double v;

		if (metric_eval_other(m, json_object_array_get_idx(runs, k), &v) == MS_OK)
			stats_add(&s, v);
	}
	return s.n && s.n == n_ok ? s.mean : NAN;
}

static void cell_stats(const struct report *r, unsigned gi, const struct metric *m,
		       struct report_cell *c)
{
	const struct report_group *g = &r->g[gi];
	enum metric_status bad = MS_MISSING;

	memset(c, 0, sizeof(*c));
	stats_init(&c->s);
	c->runs = (unsigned)json_object_array_length(g->runs);
	for (unsigned k = 0; k < c->runs; k++) {
		double v;
		enum metric_status st = metric_eval(m, json_object_array_get_idx(g->runs, k), &v);

		if (st == MS_OK)
			stats_add(&c->s, v);
		else if (bad == MS_MISSING)
			bad = st;
	}
	c->n = c->s.n;
	c->status = c->s.n ? MS_OK : bad;
	c->mean = c->s.n ? c->s.mean : NAN;
	c->rse = c->s.n >= 2 ? stats_rel_stderr(&c->s) : NAN;
	c->stddev = c->s.n >= 2 ? stats_stddev(&c->s) : NAN;
	c->min = c->s.min;
	c->max = c->s.max;
	c->ci95 = stats_ci95(&c->s);
	c->delta = c->delta_se = NAN;
	c->total = c->per_iter = NAN;
	switch (metric_kind(m)) {
	case MK_PER_ITER:
		c->per_iter = c->mean;
		c->total = other_mean(m, g->runs, c->n);
		break;
	case MK_TOTAL:
		c->total = c->mean;
		c->per_iter = other_mean(m, g->runs, c->n);
		break;
	default: break;
	}
}

/*
 * The near-zero rule: no % against a baseline whose mean is 0, within two
 * of its standard errors of 0, an event count under one per 100 iterations
 * (events outside the loop: the markers, start-up), or under 1% of the
 * value compared with it (a % of more than +9900% says nothing the
 * absolute change does not).
 */
static bool near_zero(const struct metric *m, const struct report_cell *base, double value)
{
	double b = fabs(base->mean);

	if (b == 0 || (base->n >= 2 && b <= REPORT_NEAR_ZERO_SE * stats_stderr(&base->s)))
		return true;
	if (metric_is_event_count(m) && metric_kind(m) == MK_PER_ITER && b < REPORT_NEAR_ZERO_EVENTS)
		return true;
	return b < REPORT_NEAR_ZERO_REL * fabs(value);
}

void report_cell_of(const struct report *r, unsigned gi, const struct metric *m,
		    struct report_cell *c)
{
	struct report_cell base;
	int b = r->g[gi].baseline;

	cell_stats(r, gi, m, c);
	if (c->status != MS_OK) {
		c->no_delta = ND_NO_VALUE;
		return;
	}
	if (b < 0 || (unsigned)b == gi) {
		c->no_delta = ND_BASELINE;
		return;
	}
	if (strcmp(r->g[b].bench, r->g[gi].bench)) {
		/* two benchmarks: their iterations, runs and rates are other units */
		c->no_delta = ND_OTHER_KIND;
		return;
	}
	cell_stats(r, (unsigned)b, m, &base);
	if (base.status != MS_OK) {
		c->no_delta = ND_NO_BASE;
		return;
	}
	c->compared = true;
	stats_welch(&base.s, &c->s, &c->w);
	if (near_zero(m, &base, c->mean)) {
		c->no_delta = ND_NEAR_ZERO;
		return;
	}
	c->delta = stats_delta_pct(c->mean, base.mean);
	if (c->w.tested)
		c->delta_se = 100.0 * c->w.se / fabs(base.mean);
}

void report_cell(const struct report *r, unsigned g, unsigned m, struct report_cell *c)
{
	report_cell_of(r, g, &r->m[m], c);
}

/* The suffix of a counter named base[:mod] ("" or ":k"), NULL if the name is not base. */
static const char *suffix_of(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n) || (name[n] && name[n] != ':'))
		return NULL;
	return name + n;
}

unsigned report_derived_metrics(const struct report *r, struct metric *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned c = 0; c < r->nm && n < max; c++) {
		const struct metric *cyc = &r->m[c];
		const char *sfx;

		if (cyc->num.base != MB_COUNTER || metric_kind(cyc) == MK_RATIO ||
		    !(sfx = suffix_of(cyc->num.counter, "cycles")))
			continue;
		for (unsigned i = 0; i < r->nm && n < max; i++) {
			const struct metric *ins = &r->m[i];
			const char *isfx;
			char text[sizeof(out->text)], err[160];

			if (ins->num.base != MB_COUNTER || metric_kind(ins) != metric_kind(cyc) ||
			    !(isfx = suffix_of(ins->num.counter, "instructions")) ||
			    strcmp(isfx, sfx))
				continue;
			snprintf(text, sizeof(text), "%.60s/%.60s", ins->num.counter,
				 cyc->num.counter);
			if (metric_parse(text, NULL, 0, &out[n], err, sizeof(err)))
				break;
			snprintf(out[n].label, sizeof(out[n].label), "IPC%s", sfx);
			n++;
			break;
		}
	}
	return n;
}

static bool have_label(const struct metric *m, unsigned n, const char *label)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(m[i].label, label))
			return true;
	return false;
}

unsigned report_all_metrics(const struct report *r, const struct metric *extra, unsigned n,
			    struct metric *out, unsigned max)
{
	struct report tmp;
	unsigned k = 0;

	for (unsigned i = 0; i < r->nm && k < max; i++)
		out[k++] = r->m[i];
	for (unsigned i = 0; i < n && k < max; i++)
		if (!have_label(out, k, extra[i].label))
			out[k++] = extra[i];
	/* IPC from every cycles/instructions pair among them */
	memset(&tmp, 0, sizeof(tmp));
	tmp.nm = k < REPORT_MAX_METRICS ? k : REPORT_MAX_METRICS;
	memcpy(tmp.m, out, tmp.nm * sizeof(*out));
	{
		struct metric d[REPORT_MAX_METRICS];
		unsigned nd = report_derived_metrics(&tmp, d, REPORT_MAX_METRICS);

		for (unsigned i = 0; i < nd && k < max; i++)
			if (!have_label(out, k, d[i].label))
				out[k++] = d[i];
	}
	return k;
}
