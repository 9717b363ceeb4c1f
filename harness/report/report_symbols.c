/*
 * Per-symbol differences between the trace records of two groups
 * (report_symbols.h): each group's mean count per symbol over its runs,
 * joined by (name, image) with its baseline's, ordered by the size of the
 * difference.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_symbols.h"

struct sym_row {
	const char *name, *image; /* into the records */
	double a, b;              /* mean count in the baseline (a) and the group (b) */
};

struct sym_table {
	struct sym_row *rows;
	size_t n, cap;
};

static struct json_object *get(struct json_object *o, const char *a, const char *b)
{
	if (!o || !json_object_object_get_ex(o, a, &o))
		return NULL;
	if (b && !json_object_object_get_ex(o, b, &o))
		return NULL;
	return o;
}

/* The group's runs that carry trace.symbols. */
static unsigned traced_runs(const struct report_group *g)
{
	unsigned n = 0;

	for (size_t k = 0; k < json_object_array_length(g->runs); k++)
		n += get(json_object_array_get_idx(g->runs, k), "trace", "symbols") != NULL;
	return n;
}

/* Mean trace.iterations of the traced runs; 0 when any of them has none. */
static double mean_iterations(const struct report_group *g)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t k = 0; k < json_object_array_length(g->runs); k++) {
		struct json_object *rec = json_object_array_get_idx(g->runs, k), *it;

		if (!get(rec, "trace", "symbols"))
			continue;
		it = get(rec, "trace", "iterations");
		if (!it || json_object_get_int64(it) <= 0)
			return 0;
		sum += (double)json_object_get_int64(it);
		n++;
	}
	return n ? sum / n : 0;
}

static struct sym_row *row_for(struct sym_table *t, const char *name, const char *image)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].name, name) && !strcmp(t->rows[i].image, image))
			return &t->rows[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct sym_row *p = realloc(t->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->rows = p;
		t->cap = cap;
	}
	t->rows[t->n] = (struct sym_row){.name = name, .image = image};
	return &t->rows[t->n++];
}

/* Adds the group's mean counts into column a (baseline) or b; -1 out of memory. */
static int add_group(struct sym_table *t, const struct report_group *g, bool into_b)
{
	unsigned runs = traced_runs(g);

	for (size_t k = 0; k < json_object_array_length(g->runs); k++) {
		struct json_object *syms =
			get(json_object_array_get_idx(g->runs, k), "trace", "symbols");

		for (size_t i = 0; syms && i < json_object_array_length(syms); i++) {
			struct json_object *s = json_object_array_get_idx(syms, i);
			struct json_object *name = get(s, "name", NULL),
					   *count = get(s, "count", NULL);
			struct json_object *image = get(s, "image", NULL);
			struct sym_row *row;

			if (!name || !count)
				continue;
			row = row_for(t, json_object_get_string(name),
				      image ? json_object_get_string(image) : "");
			if (!row)
				return -1;
			*(into_b ? &row->b : &row->a) += (double)json_object_get_int64(count) / runs;
		}
	}
	return 0;
}

static int by_difference(const void *x, const void *y)
{
	const struct sym_row *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A count: whole numbers as such (one run each), means with two decimals. */
static void count_text(double v, bool sign, char *buf, size_t len)
{
	if (v == floor(v))
		snprintf(buf, len, sign ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, len, sign ? "%+.2f" : "%.2f", v);
}

static void print_pair(FILE *f, const struct report *r, unsigned gi, unsigned top)
{
	const struct report_group *g = &r->g[gi], *base = &r->g[r->g[gi].baseline];
	double it_a = mean_iterations(base), it_b = mean_iterations(g);
	struct sym_table t = {0};
	size_t differ = 0, shown = 0;
	int w = 36;

	if (add_group(&t, base, false) || add_group(&t, g, true)) {
		fprintf(f, "per-symbol differences: out of memory\n");
		free(t.rows);
		return;
	}
	qsort(t.rows, t.n, sizeof(t.rows[0]), by_difference);
	/* As wide as the longest name shown (Linux has 45-byte ones), at least 36. */
	for (size_t i = 0, n = 0; i < t.n && n < top; i++) {
		if (t.rows[i].a == t.rows[i].b)
			continue;
		n++;
		if ((int)strlen(t.rows[i].name) > w)
			w = (int)strlen(t.rows[i].name);
	}
	fprintf(f, "\nper-symbol instructions: %s (B) vs baseline %s (A)\n", g->name, base->name);
	fprintf(f, "  %-*s %-8s %14s %14s %14s %12s\n", w, "symbol", "image", "A", "B", "B - A",
		it_a && it_b ? "per iter" : "");
	for (size_t i = 0; i < t.n; i++) {
		const struct sym_row *s = &t.rows[i];
		char a[32], b[32], d[32], pi[32] = "";

		if (s->a == s->b)
			continue;
		differ++;
		if (shown == top)
			continue;
		shown++;
		count_text(s->a, false, a, sizeof(a));
		count_text(s->b, false, b, sizeof(b));
		count_text(s->b - s->a, true, d, sizeof(d));
		if (it_a && it_b)
			snprintf(pi, sizeof(pi), "%+.2f", s->b / it_b - s->a / it_a);
		fprintf(f, "  %-*s %-8s %14s %14s %14s %12s\n", w, s->name, s->image, a, b, d, pi);
	}
	if (!differ)
		fprintf(f, "  every symbol's count is the same (%zu symbols)\n", t.n);
	else if (differ > shown)
		fprintf(f, "  ... %zu more symbols differ\n", differ - shown);
	if (differ && t.n > differ)
		fprintf(f, "  %zu symbols have the same count in both\n", t.n - differ);
	free(t.rows);
}

void report_print_symbols(FILE *f, const struct report *r, unsigned top)
{
	unsigned traced = 0;

	for (unsigned i = 0; i < r->n; i++)
		traced += traced_runs(&r->g[i]) > 0;
	if (traced < 2)
		return;
	for (unsigned i = 0; i < r->n; i++) {
		int b = r->g[i].baseline;

		if (b < 0 || (unsigned)b == i || !traced_runs(&r->g[i]) || !traced_runs(&r->g[b]))
			continue;
		print_pair(f, r, i, top ? top : REPORT_SYMBOLS_TOP);
	}
}
