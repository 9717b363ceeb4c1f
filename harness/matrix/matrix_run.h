/*
 * What a matrix leaves behind and how it survives an interruption: its
 * directory (results/<experiment>/<UTC time>/, or beside -o FILE) with the
 * records, the plan (plan.json, what --resume continues) and the report
 * files; the records read back into the report; progress lines printed only
 * once a record is on disk; SIGINT/SIGTERM turned into a clean stop.
 */
#ifndef EL_MATRIX_RUN_H
#define EL_MATRIX_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "matrix.h"
#include "record_out.h"
#include "report.h"

#define MATRIX_PLAN_FILE "plan.json"
#define MATRIX_RUNS_FILE "runs.jsonl"
#define MATRIX_PLAN_SCHEMA "entrylab.matrix-plan/1"

/* The directory of one matrix and its files. */
struct matrix_dir {
	char dir[4096];  /* no trailing slash */
	char runs[4096]; /* the records file: dir/runs.jsonl, or -o FILE */
	char plan[4200]; /* dir/plan.json */
	struct record_out out;
};

/* ---- matrix_dir.c ---- */

/*
 * The directory's path, not created: -o FILE's directory, or
 * results/<name>[-trace]/<UTC time>/ (the time also m->id's first part).
 * For --dry-run and for matrix_dir_create.
 */
void matrix_dir_name(struct matrix *m, struct matrix_dir *d);
/* matrix_dir_name, the directory made, the records file opened.  0 or EL_EXIT_USAGE (printed). */
int matrix_dir_create(struct matrix *m, struct matrix_dir *d);
/* The paths of an existing directory (--resume) from its plan's runs_file; records opened. */
int matrix_dir_reopen(struct matrix_dir *d, const char *dir, const char *runs_file);
/* One shell word as typed: bare when safe, else single-quoted (plan.json, --dry-run). */
void matrix_shell_word(FILE *f, const char *w);
/* The command that reproduces the matrix, as one shell line: "entrylab matrix ..." (malloc'd). */
char *matrix_command(int argc, char *const *argv);

/* ---- matrix_plan_file.c: plan.json ---- */

/*
 * Writes dir/plan.json: the matrix id, experiment (name, resolved file, its
 * hash), the options as parsed (argv after "matrix"; -o is ignored on
 * resume), the command as typed, the records file and the planned runs
 * (variant, run), and a fleet's "fleet" object (fleet.h; taken; NULL: a plain
 * matrix).  0 or -1 (printed).
 */
int matrix_plan_save(const struct matrix *m, const struct matrix_dir *d, const char *command,
		     int argc, char *const *argv, struct json_object *fleet);

/* A saved plan: what --resume replays.  Strings point into obj. */
struct matrix_saved {
	struct json_object *obj;
	const char *id, *experiment, *file, *runs_file, *command;
	unsigned long hash;
	int argc;                       /* argv[0] = "matrix" */
	char *argv[MATRIX_MAX_ARGV + 2]; /* NULL-ended */
};

/* Reads dir/plan.json.  0, or EL_EXIT_USAGE after printing why and the fix. */
int matrix_plan_read(const char *dir, struct matrix_saved *s);
void matrix_saved_free(struct matrix_saved *s);
/* After matrix_plan() on the replayed options: the same runs and file?  0 or EL_EXIT_USAGE. */
int matrix_plan_matches(const struct matrix *m, const struct matrix_saved *s, const char *dir);
/* FNV-1a of a file's bytes; 0 when it cannot be read. */
unsigned long matrix_file_hash(const char *path);

/* ---- matrix_records.c: the records file read back ---- */

/*
 * Marks in m->done the runs whose record of this matrix (experiment.id)
 * is in path (status anything but "interrupted"), and skipped variants.
 * A missing file is an empty one.  0 or -1 (printed).
 */
int matrix_done_load(struct matrix *m, const char *path);
/*
 * The done runs as a compact list for the nested VM's `--done-runs`:
 * "I.RUN,..." (selected-variant index, run; 0 = the skip record), "" when
 * none (malloc'd, NULL out of memory); and parsed back into m->done.
 */
char *matrix_done_list(const struct matrix *m);
int matrix_done_parse(struct matrix *m, const char *list);
/* Whether run (1-based; 0 = the skip record) of selected variant i is done. */
bool matrix_done(const struct matrix *m, unsigned i, unsigned run);
/*
 * The report of this matrix's records in path: a group per selected
 * variant, baselines resolved; kept = runs with a record (skips not
 * counted), planned = runs of the variants not skipped.  0 or -1 (printed).
 */
int matrix_report_load(const struct matrix *m, const char *path, struct report *r,
		       unsigned *kept, unsigned *planned);

/* ---- matrix_progress.c ---- */

/* "[k/total] VARIANT run i/r: status (ms)" lines, one per record on disk. */
struct matrix_progress {
	const struct matrix *m;
	unsigned k, total;
};

/* total: the runs of variants not known to be skipped; k: those done already. */
void matrix_progress_init(struct matrix_progress *p, const struct matrix *m);
/* The line for a record that is on disk (a skip record: "VARIANT: skipped: why"). */
void matrix_progress_record(struct matrix_progress *p, struct json_object *rec);
/* The same from a record line as it came back from the nested runner (nested_request.on_record). */
void matrix_progress_line(void *ctx, const char *line, size_t len);

/* ---- matrix_signal.c ---- */

void matrix_signal_install(void);
void matrix_signal_restore(void);
/* The signal that asked us to stop, or 0. */
int matrix_signal_stopped(void);
const volatile sig_atomic_t *matrix_signal_flag(void);
/* The boot in flight (0: none): killed when a signal comes. */
void matrix_signal_child(pid_t pid);
/* In a forked boot: default dispositions again. */
void matrix_signal_child_default(void);

#endif
