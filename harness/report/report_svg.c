/*
 * One SVG chart per headline metric: a horizontal bar per variant (its
 * row label) at the mean, an error bar of the 95% confidence interval of
 * the mean (Student t, n-1 degrees of freedom; none with one run), an axis
 * in the metric's unit, and the title.  Variants without a value get a
 * text ("skipped", "not-supported") instead of a bar.  Plain SVG 1.1 text.
 */
#include <math.h>
#include <string.h>

#include "report_md.h"

#define PLOT   560 /* width of the plot area */
#define RIGHT  90  /* room for the value text */
#define CHAR_W 7   /* a 12px sans-serif character, roughly */
#define TOP    80
#define ROW    30
#define BAR    18

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

void report_svg_name(const struct report_meta *meta, const struct report_headline *h, char *buf,
		     size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s-",
				    meta && meta->experiment ? meta->experiment : "report");

	for (const char *p = h->unit; *p && n + 5 < len; p++)
		buf[n++] = (strchr("._-+", *p) || (*p >= '0' && *p <= '9') ||
			    (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
				   ? *p
				   : '_';
	snprintf(buf + n, len - n, ".svg");
}

/* 1, 2 or 5 times a power of ten, near range/5. */
static double nice_step(double range)
{
	double raw = range / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* Characters of a row's text: "table: label (baseline)". */
static size_t label_len(const struct report *r, const struct report_meta *meta, unsigned g)
{
	const struct report_row *row = report_row_of(meta, r->g[g].name);
	size_t n = strlen(report_label_of(r, meta, g));

	if (row && row->table && row->table[0])
		n += strlen(row->table) + 2;
	return n + (r->g[g].baseline == (int)g ? 11 : 0);
}

struct bar {
	bool have;
	double mean, ci;
	const char *why;
};

void report_svg(FILE *f, const struct report *r, const struct report_meta *meta,
		const struct report_headline *h)
{
	struct bar b[256];
	unsigned n = r->n < 256 ? r->n : 256;
	double lo = 0, hi = 0, step, pw = PLOT;
	int height = TOP + (int)n * ROW + 60, left = 120, w;
	bool negative = false;
	const char *whole = metric_kind(&h->m) == MK_TOTAL ? " (whole run)" : "";
	int decimals;

	for (unsigned g = 0; g < n; g++) {
		struct report_cell c;

		report_cell_of(r, g, &h->m, &c);
		b[g].have = c.status == MS_OK && c.runs;
		b[g].mean = c.mean;
		b[g].ci = isnan(c.ci95) ? 0 : c.ci95;
		b[g].why = !c.runs ? (r->g[g].failed    ? "failed"
				      : r->g[g].skipped ? "skipped"
							: "not run")
			   : c.status == MS_NOT_SUPPORTED ? "not-supported"
			   : c.status == MS_NOT_COUNTED   ? "not-counted"
							  : "no value";
		if (b[g].have) {
			negative = negative || b[g].mean < 0;
			lo = fmin(lo, b[g].mean - b[g].ci);
			hi = fmax(hi, b[g].mean + b[g].ci);
		}
		left = (int)fmax(left, 16 + CHAR_W * (double)label_len(r, meta, g));
	}
	/* All means positive: the axis starts at 0 and error bars are cut there. */
	if (!negative)
		lo = 0;
	w = left + PLOT + RIGHT < 720 ? 720 : left + PLOT + RIGHT;
	if (hi - lo <= 0)
		hi = lo + 1;
	step = nice_step(hi - lo);
	decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	lo = floor(lo / step) * step;
	hi = ceil(hi / step) * step;
#define X(v) (left + (fmax(lo, (v)) - lo) / (hi - lo) * pw)
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		w, height, w, height, w, height);
	fprintf(f, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", 12);
	xml_text(f, meta && meta->experiment ? meta->experiment : "report");
	if (meta && meta->seed) {
		fputs(" (seed ", f);
		xml_text(f, meta->seed);
		fputs(")", f);
	}
	fputs(": ", f);
	xml_text(f, h->unit);
	fputs(whole, f);
	fprintf(f,
		"</text>\n<text x=\"12\" y=\"42\" font-size=\"12\" fill=\"#444\">bars: mean "
		"over the runs; error bars: 95%% confidence interval of the mean</text>\n"
		"<text x=\"12\" y=\"57\" font-size=\"12\" fill=\"#444\">(Student t; none with "
		"one run%s)%s</text>\n",
		negative ? "" : "; cut at 0",
		r->nested ? "; nested runner: timings are not meaningful" : "");
	for (double t = lo; t <= hi + step / 2; t += step) {
		char v[48];

		report_format_value(fabs(t) < step / 1e6 ? 0 : t, decimals, v, sizeof(v));
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n"
			"<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
			X(t), TOP - 6, X(t), TOP + (int)n * ROW, X(t), TOP + (int)n * ROW + 16, v);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n", X(0),
		TOP - 6, X(0), TOP + (int)n * ROW);
	for (unsigned g = 0; g < n; g++) {
		int y = TOP + (int)g * ROW, mid = y + ROW / 2;
		bool base = r->g[g].baseline == (int)g;
		const struct report_row *row;
		char v[48];

		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">",
			left - 8, mid + 4);
		row = report_row_of(meta, r->g[g].name);
		if (row && row->table && row->table[0]) {
			xml_text(f, row->table);
			fputs(": ", f);
		}
		xml_text(f, report_label_of(r, meta, g));
		if (base)
			fputs(" (baseline)", f);
		fputs("</text>\n", f);
		if (!b[g].have) {
			fprintf(f,
				"<text class=\"novalue\" x=\"%.1f\" y=\"%d\" font-size=\"12\" "
				"fill=\"#888\">%s</text>\n",
				X(0) + 4, mid + 4, b[g].why);
			continue;
		}
		fprintf(f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
			"fill=\"%s\"/>\n",
			fmin(X(0), X(b[g].mean)), mid - BAR / 2, fabs(X(b[g].mean) - X(0)), BAR,
			base ? "#7f7f7f" : "#4878b8");
		if (b[g].ci > 0)
			fprintf(f,
				"<path class=\"err\" d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" "
				"stroke=\"black\" fill=\"none\"/>\n",
				X(b[g].mean - b[g].ci), mid, X(b[g].mean + b[g].ci),
				X(b[g].mean - b[g].ci), b[g].mean - b[g].ci < lo ? mid : mid - 5,
				b[g].mean - b[g].ci < lo ? mid : mid + 5, X(b[g].mean + b[g].ci),
				mid - 5, mid + 5);
		report_md_number(b[g].mean, v, sizeof(v));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>\n",
			fmax(X(b[g].mean), X(b[g].mean + b[g].ci)) + 4, mid + 4, v);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">",
		left + pw / 2, TOP + (int)n * ROW + 36);
	xml_text(f, h->unit);
	fputs(whole, f);
	fputs("</text>\n</svg>\n", f);
#undef X
}
