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

#endif
