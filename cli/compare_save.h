/* The saved report of records: `entrylab compare --save DIR`, and of a records file on disk. */
#ifndef EL_COMPARE_SAVE_H
#define EL_COMPARE_SAVE_H

#include <stddef.h>

#include "report.h"
#include "report_save.h"

/*
 * Writes summary.csv, report.md and the charts of r into dir (which must
 * exist), shaped by experiment (a path or name; NULL: the one the records
 * name, if any).  argv: the command line, for report.md.  0 or EL_EXIT_*.
 */
int compare_save(const struct report *r, const char *dir, const char *experiment, int argc,
		 char **argv);

/*
 * The same from a records file (e.g. DIR/runs.jsonl after `matrix --resume`
 * or a nested matrix: every record in the file, old and new): grouped by
 * variant with the records' baselines, the experiment's metrics, shaped by
 * experiment (path or name; NULL: the one the records name).  over gives
 * command, runs_file, scale, planned, kept, interrupted (may be NULL).
 * 0, or -1 with "cannot ...; fix" in err.
 */
int compare_save_records(const char *records, const char *experiment, const char *dir,
			 const struct report_meta *over, char *err, size_t errlen);

#endif
