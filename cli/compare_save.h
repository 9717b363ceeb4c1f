/* `entrylab compare --save DIR`: report_save() for records given on the command line. */
#ifndef EL_COMPARE_SAVE_H
#define EL_COMPARE_SAVE_H

#include "report.h"

/*
 * Writes summary.csv, report.md and the charts of r into dir (which must
 * exist), shaped by experiment (a path or name; NULL: the one the records
 * name, if any).  argv: the command line, for report.md.  0 or EL_EXIT_*.
 */
int compare_save(const struct report *r, const char *dir, const char *experiment, int argc,
		 char **argv);

#endif
