/*
 * Inside `entrylab matrix` (cmd_matrix.c: options, experiment, plan,
 * printing the report; matrix_session.c: the directory, the runs native or
 * nested, signals, the saved report, --resume).
 */
#ifndef EL_CMD_MATRIX_H
#define EL_CMD_MATRIX_H

#include <stdbool.h>

#include "matrix.h"
#include "matrix_run.h"
#include "report.h"

/* The report on stdout as the options ask (table, -x CSV, --json); cmd_matrix.c. */
void cmd_matrix_print(const struct matrix *m, struct report *r, const char *output);

/*
 * On the host: the directory made (or, --resume, reopened and its done
 * runs read), plan.json written, the runs done here (nested_why NULL: the
 * engine is native KVM, Bochs or, --trace, QEMU TCG) or in one nested VM
 * (nested_why: the engine probe's reason for it; boot_timeout_s per boot),
 * SIGINT/SIGTERM handled, then the report from the records file printed
 * and saved.  s: the plan --resume read, NULL otherwise; command: the
 * command line as typed (for plan.json and the report).  Returns the exit
 * status.
 */
int matrix_session_host(struct matrix *m, const struct matrix_saved *s, const char *command,
			int argc, char **argv, const char *nested_why, double boot_timeout_s);

/* Inside the nested VM: the plan's runs not done yet, records to the inner output file. */
int matrix_session_inner(struct matrix *m, const struct matrix_saved *s);

/*
 * A fleet task's runs (m->done marks all others) on this host: natively,
 * or in one nested VM that resumes dir's plan; records appended to
 * records.  SIGINT/SIGTERM abandon the boot in flight (128 + signal).
 */
int matrix_session_task(struct matrix *m, const char *dir, const char *records,
			const char *nested_why, double boot_timeout_s);

/* cmd_matrix.c: the options parser, for a plan's saved argv (matrix_fleet.c). */
int cmd_matrix_options(int argc, char **argv, struct matrix_opts *o);
/*
 * cmd_matrix.c: the report's columns as the experiment and options choose
 * them (--trace: instruction counts; a note on stderr unless quiet).
 */
void cmd_matrix_columns(const struct matrix *m, struct report *r, bool quiet);

/* matrix_fleet.c: --emit, --run-one and --collect (harness/matrix/fleet.h). */
int matrix_fleet_emit(struct matrix *m, const char *command, int argc, char **argv);
int matrix_fleet_run_one(const struct matrix_opts *given);
int matrix_fleet_collect(const struct matrix_opts *given);

#endif
