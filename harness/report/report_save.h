/*
 * What `entrylab matrix` leaves in its directory besides runs.jsonl:
 * summary.csv, report.md and one SVG chart per headline metric.  Each file
 * is written to a temporary name in the directory and renamed into place,
 * so a reader never sees half a report and an old report survives a failed
 * rewrite.  The matrix layer fills report_meta (it knows the experiment);
 * the report layer knows only records and these strings.
 */
#ifndef EL_REPORT_SAVE_H
#define EL_REPORT_SAVE_H

#include <stddef.h>

#include "report.h"

/* A variant's place in report.md's seed table (experiment keys label and table). */
struct report_row {
	const char *variant; /* the group's name */
	const char *label;   /* the row's text, "no global"; NULL: the name */
	const char *table;   /* which table ("without PCID"); NULL or "": the one table */
};

/*
 * Filled by the matrix, in this way:
 *
 *	struct report_row rows[EXP_MAX_VARIANTS];
 *	struct report_meta meta = {0};
 *
 *	experiment_report_meta(&m->exp, rows, &meta); // experiment, seed, description,
 *	                                              // headline, rows, nrows
 *	meta.command = "entrylab matrix pti-global -r 5";  // argv as typed, re-joined
 *	meta.runs_file = "runs.jsonl";
 *	meta.scale = "default";            // or "seed" (--scale seed)
 *	meta.planned = ...; meta.kept = ...; meta.interrupted = ...;
 *	report_save(r, dir, &meta, err, sizeof(err));
 *
 * Call it after the report's columns are chosen (cmd_matrix.c's print_report
 * adds them with report_metric; without any, summary.csv gets the defaults)
 * and after report_resolve_baselines().  Every pointer may be NULL (that part
 * of report.md is left out); rows must outlive the call only.
 */
struct report_meta {
	const char *experiment;  /* the experiment's full name */
	const char *seed;        /* "002", "000,001"; NULL when none */
	const char *description; /* the experiment's one line */
	const char *command;     /* the exact command line that reproduces the matrix */
	const char *runs_file;   /* the records, relative to the directory: "runs.jsonl" */
	const char *scale;       /* "default" or "seed" */
	unsigned planned, kept;  /* runs the plan has, runs whose records are on disk */
	int interrupted;         /* nonzero: the matrix stopped early (SIGINT/SIGTERM) */
	const char *headline;    /* the experiment's headline key: "s/run as s, ns/page_faults" */
	const struct report_row *rows; /* per variant, in the experiment's order */
	unsigned nrows;
};

/* One column of the seed's table: a metric, shown in the seed's unit. */
struct report_headline {
	struct metric m;
	/* "lseeks/s" from "iterations/s as lseeks/s"; else the metric's label */
	char unit[2 * METRIC_NAME_MAX + 2];
};

#define REPORT_MAX_HEADLINE 8

/*
 * Parses a headline: "METRIC [as UNIT], ..." (comma-separated; METRIC as
 * metric_parse with events, n).  Returns how many, or -1 with the problem
 * and the fix in err.
 */
int report_headline_parse(const char *text, const char *const *events, size_t n,
			  struct report_headline *out, unsigned max, char *err, size_t errlen);

/* Writes the files into dir (which exists).  0, or -1 with "cannot ...; fix" in err. */
int report_save(const struct report *r, const char *dir, const struct report_meta *meta, char *err,
		size_t errlen);

/*
 * A fleet's report (report_fleet.c): one section per host class (a class
 * whose hosts differ is split, one section per kind of host, with a
 * warning), each a report of its own in dir/SUB/, and at the top of dir
 * report.md (a pivot of the changes by class, then every section),
 * summary.csv (class and hosts columns first) and the sections' charts
 * linked from there.  Changes are computed within a section only:
 * absolute values of different hosts are never pooled.
 */
struct report_section {
	const char *name;    /* "classA", or "classA/2" for a split's second kind of host */
	const char *sub;     /* its own directory under dir: "class-classA" */
	const char *hosts;   /* the hosts and their CPUs, one line */
	const char *warning; /* why the class was split; NULL: not split */
	const struct report *r; /* columns chosen, baselines resolved */
	unsigned planned, kept; /* the section's runs: planned, with a record */
};

int report_fleet_save(const struct report_section *s, unsigned n, const char *dir,
		      const struct report_meta *meta, char *err, size_t errlen);

/* Writes data to dir/name through dir/.name.tmp and rename(2).  0, or -1 with err. */
int report_write_file(const char *dir, const char *name, const char *data, size_t len, char *err,
		      size_t errlen);

#endif
