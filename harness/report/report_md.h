/*
 * Inside report_save(): the parts of report.md (report_md.c: title and the
 * seed's tables; report_md_context.c: runs, configuration, host, caveats)
 * and the SVG charts (report_svg.c).
 */
#ifndef EL_REPORT_MD_H
#define EL_REPORT_MD_H

#include <stdio.h>

#include "report_save.h"

/* What report.md links to: the chart file of each headline metric. */
struct report_files {
	char charts[REPORT_MAX_HEADLINE][160];
	unsigned ncharts;
};

/*
 * The columns report_save() writes: the headline metrics (h, *nh of them)
 * and every column (m, returned count), as summary.csv has them.
 */
unsigned report_columns(const struct report *r, const struct report_meta *meta,
			struct report_headline *h, unsigned *nh, struct metric *m, unsigned max);
/* The chart file of each headline metric, as report_save() names them. */
void report_chart_names(const struct report_meta *meta, const struct report_headline *h,
			unsigned nh, struct report_files *files);

/* The whole report.md. */
void report_md(FILE *f, const struct report *r, const struct report_meta *meta,
	       const struct report_headline *h, unsigned nh, const struct report_files *files);

/* meta's row of a group (by name), NULL when meta has none. */
const struct report_row *report_row_of(const struct report_meta *meta, const char *variant);
/* The row label of group g: meta's label, else its name. */
const char *report_label_of(const struct report *r, const struct report_meta *meta, unsigned g);

/* report_md_context.c: the sections around the tables. */
void report_md_runs(FILE *f, const struct report *r, const struct report_meta *meta);
void report_md_config(FILE *f, const struct report *r, const struct report_meta *meta);
void report_md_host(FILE *f, const struct report *r);
void report_md_caveats(FILE *f, const struct report *r, const struct report_meta *meta,
		       const struct report_headline *h, unsigned nh);

/* report_svg.c: one chart of metric h over the groups; title names the experiment. */
void report_svg(FILE *f, const struct report *r, const struct report_meta *meta,
		const struct report_headline *h);
/* "pti-global-lseeks_s.svg": the experiment's full name and the unit, file-name safe. */
void report_svg_name(const struct report_meta *meta, const struct report_headline *h, char *buf,
		     size_t len);

/* "exact (trace)", "yes (p=0.003)", "no, within noise (p=0.4)": a change's verdict. */
void report_md_verdict(const struct report *r, const struct report_cell *c, char *buf, size_t len);
/* A number as the tables print it: thousands separated, decimals by magnitude. */
void report_md_number(double v, char *buf, size_t len);

#endif
