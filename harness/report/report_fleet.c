/*
 * report_fleet_save() (report_save.h): a fleet's report from one report per
 * section (a host class, or one kind of host of a split class).  Each
 * section's own files come from report_save() in its directory; the top
 * report.md puts the sections side by side only as changes against each
 * section's own baseline (ratios of means), never as pooled absolute
 * values, then repeats each section's result with its charts linked.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_md.h"
#include "report_save.h"

/* The text a print function produced, or NULL out of memory. */
static char *render(void (*print)(FILE *, const void *), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	print(f, ctx);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[]){*s == '\n' ? ' ' : *s, 0}, f);
	fputc('"', f);
}

/* Each line of text written with prefix fields (class, hosts) before it. */
static void prefix_lines(FILE *f, const char *text, const char *a, const char *b)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		csv_field(f, a);
		fputc(',', f);
		csv_field(f, b);
		fprintf(f, ",%.*s\n", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

struct csv_ctx {
	const struct report_section *s;
	unsigned n;
	const struct report_meta *meta;
};

static void print_header(FILE *f, const void *ctx)
{
	(void)ctx;
	report_csv_header(f, ",");
}

struct rows_ctx {
	const struct report *r;
	const struct metric *m;
	unsigned nm;
};

static void print_rows(FILE *f, const void *ctx)
{
	const struct rows_ctx *c = ctx;

	report_csv_rows(f, c->r, ",", c->m, c->nm);
}

static void print_csv(FILE *f, const void *ctx)
{
	const struct csv_ctx *c = ctx;
	char *head = render(print_header, NULL);

	fprintf(f, "class,hosts,%s", head ? head : "\n");
	free(head);
	for (unsigned i = 0; i < c->n; i++) {
		struct report_headline h[REPORT_MAX_HEADLINE];
		struct metric m[2 * REPORT_MAX_METRICS];
		struct rows_ctx rc = {.r = c->s[i].r, .m = m};
		unsigned nh;
		char *rows;

		rc.nm = report_columns(c->s[i].r, c->meta, h, &nh, m, 2 * REPORT_MAX_METRICS);
		if ((rows = render(print_rows, &rc)))
			prefix_lines(f, rows, c->s[i].name, c->s[i].hosts);
		free(rows);
	}
}

/* One pivot cell: "x0.977 (-2.31% ± 0.40, significant (p=0.001))", "baseline", "n/a (...)". */
static void pivot_cell(FILE *f, const struct report *r, int g, const struct metric *m)
{
	struct report_cell c;
	char test[96];

	if (g < 0) {
		fputs(" not run |", f);
		return;
	}
	report_cell_of(r, (unsigned)g, m, &c);
	if (c.no_delta == ND_BASELINE) {
		fputs(" baseline |", f);
		return;
	}
	if (!c.runs) {
		fprintf(f, " %s |", r->g[g].failed ? "failed" : r->g[g].skipped ? "unsupported" : "not run");
		return;
	}
	if (c.no_delta != ND_NONE || !isfinite(c.delta)) {
		fprintf(f, " %s |", c.no_delta != ND_NONE ? report_no_delta_text(c.no_delta) : "n/a");
		return;
	}
	report_md_verdict(r, &c, test, sizeof(test));
	fprintf(f, " x%.4f (%+.2f%%", 1.0 + c.delta / 100.0, c.delta);
	if (isfinite(c.delta_se) && !report_all_traces(r))
		fprintf(f, " ± %.2f", c.delta_se);
	fprintf(f, ", %s) |", test);
}

static void print_pivot(FILE *f, const struct report_section *s, unsigned n,
			const struct report_meta *meta)
{
	struct report_headline h[REPORT_MAX_HEADLINE];
	struct metric m[2 * REPORT_MAX_METRICS];
	const struct report *r0 = s[0].r;
	unsigned nh;

	report_columns(r0, meta, h, &nh, m, 2 * REPORT_MAX_METRICS);
	fprintf(f, "## Across host classes\n\n"
		   "Each cell compares a variant with its baseline on the same class of host: "
		   "the ratio of the means (and the change ± its standard error, %s). "
		   "Absolute values of different classes are never pooled; each class's own "
		   "numbers are in its section below.\n",
		REPORT_TEST_NAME);
	for (unsigned k = 0; k < nh; k++) {
		fprintf(f, "\n### %s\n\n| variant |", h[k].unit);
		for (unsigned i = 0; i < n; i++)
			fprintf(f, " %s |", s[i].name);
		fputs("\n|---|", f);
		for (unsigned i = 0; i < n; i++)
			fputs("---|", f);
		fputc('\n', f);
		for (unsigned g = 0; g < r0->n; g++) {
			fprintf(f, "| %s |", report_label_of(r0, meta, g));
			for (unsigned i = 0; i < n; i++)
				pivot_cell(f, s[i].r, report_find(s[i].r, r0->g[g].name), &h[k].m);
			fputc('\n', f);
		}
	}
}

/*
 * A section's report.md from "## Result" on, one heading level down, its
 * links into its own directory.
 */
static void print_section_md(FILE *f, const char *md, const char *sub)
{
	const char *p = strstr(md, "\n## ");

	for (p = p ? p + 1 : md; *p;) {
		size_t n = strcspn(p, "\n");
		const char *end = p + n;

		if (*p == '#')
			fputs("##", f);
		for (const char *q = p; q < end; q++) {
			fputc(*q, f);
			if (*q == ']' && q + 1 < end && q[1] == '(' && q + 2 < end && q[2] != '/' &&
			    q[2] != '#' && strncmp(q + 2, "http", 4)) {
				fprintf(f, "(%s/", sub);
				q++;
			}
		}
		fputc('\n', f);
		p = *end ? end + 1 : end;
	}
}

struct md_ctx {
	const struct report_section *s;
	unsigned n;
	const struct report_meta *meta;
};

static void print_section(FILE *f, const struct report_section *s,
			  const struct report_meta *meta)
{
	struct report_meta own = *meta;
	struct report_headline h[REPORT_MAX_HEADLINE];
	struct metric m[2 * REPORT_MAX_METRICS];
	struct report_files files = {0};
	char *md = NULL;
	size_t len = 0;
	unsigned nh;
	FILE *mf;

	fprintf(f, "\n## Class %s\n\nHosts: %s.  Its own report: [%s/report.md](%s/report.md).\n\n",
		s->name, s->hosts, s->sub, s->sub);
	if (s->warning)
		fprintf(f, "**Warning**: %s\n\n", s->warning);
	report_columns(s->r, meta, h, &nh, m, 2 * REPORT_MAX_METRICS);
	report_chart_names(meta, h, nh, &files);
	if (!(mf = open_memstream(&md, &len)))
		return;
	own.planned = s->planned;
	own.kept = s->kept;
	own.runs_file = "runs.jsonl";
	report_md(mf, s->r, &own, h, nh, &files);
	if (!fclose(mf))
		print_section_md(f, md, s->sub);
	free(md);
}

static void print_md(FILE *f, const void *ctx)
{
	const struct md_ctx *c = ctx;
	const struct report_meta *meta = c->meta;

	fprintf(f, "# %s: a fleet of %u host class%s", meta->experiment ? meta->experiment : "report",
		c->n, c->n == 1 ? "" : "es");
	if (meta->seed)
		fprintf(f, " (seed %s)", meta->seed);
	fprintf(f, "\n\n");
	if (meta->description)
		fprintf(f, "%s\n\n", meta->description);
	if (meta->command)
		fprintf(f, "Emitted by: `%s`\n\n", meta->command);
	fprintf(f, "Runs: %u of %u planned have a record (%s).\n\n", meta->kept, meta->planned,
		meta->runs_file ? meta->runs_file : "runs.jsonl");
	print_pivot(f, c->s, c->n, meta);
	for (unsigned i = 0; i < c->n; i++)
		print_section(f, &c->s[i], meta);
}

static int write_rendered(const char *dir, const char *name,
			  void (*print)(FILE *, const void *), const void *ctx, char *err,
			  size_t errlen)
{
	char *text = render(print, ctx);
	int rc;

	if (!text) {
		snprintf(err, errlen, "out of memory writing %s", name);
		return -1;
	}
	rc = report_write_file(dir, name, text, strlen(text), err, errlen);
	free(text);
	return rc;
}

int report_fleet_save(const struct report_section *s, unsigned n, const char *dir,
		      const struct report_meta *meta, char *err, size_t errlen)
{
	struct report_meta sub_meta = *meta;
	struct csv_ctx csv = {.s = s, .n = n, .meta = meta};
	struct md_ctx md = {.s = s, .n = n, .meta = meta};
	char title[1024];

	if (!n) {
		snprintf(err, errlen, "a fleet report needs a host class");
		return -1;
	}
	sub_meta.runs_file = "../runs.jsonl";
	for (unsigned i = 0; i < n; i++) {
		char path[4400];

		snprintf(title, sizeof(title), "Host class %s (hosts: %.300s).  %s", s[i].name,
			 s[i].hosts, meta->description ? meta->description : "");
		sub_meta.description = title;
		sub_meta.planned = s[i].planned;
		sub_meta.kept = s[i].kept;
		snprintf(path, sizeof(path), "%s/%s", dir, s[i].sub);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %s: %s; make %s writable", path,
				 strerror(errno), dir);
			return -1;
		}
		if (report_save(s[i].r, path, &sub_meta, err, errlen))
			return -1;
	}
	if (write_rendered(dir, "summary.csv", print_csv, &csv, err, errlen))
		return -1;
	return write_rendered(dir, "report.md", print_md, &md, err, errlen);
}
