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

struct report_meta {
	const char *experiment;  /* the experiment's full name */
	const char *seed;        /* "002", "000,001"; NULL when none */
	const char *description; /* the experiment's one line */
	const char *command;     /* the exact command line that reproduces the matrix */
	const char *runs_file;   /* the records, relative to the directory: "runs.jsonl" */
	const char *scale;       /* "default" or "seed" */
	unsigned planned, kept;  /* runs the plan has, runs whose records are on disk */
	int interrupted;         /* nonzero: the matrix stopped early (SIGINT/SIGTERM) */
};

/* Writes the files into dir (which exists).  0, or -1 with "cannot ...; fix" in err. */
int report_save(const struct report *r, const char *dir, const struct report_meta *meta, char *err,
		size_t errlen);

/* Writes data to dir/name through dir/.name.tmp and rename(2).  0, or -1 with err. */
int report_write_file(const char *dir, const char *name, const char *data, size_t len, char *err,
		      size_t errlen);

#endif
