/*
 * `entrylab matrix EXPERIMENT`: every selected variant of an experiment
 * file, `repeat` fresh VMs each, records appended as runs complete, then
 * the report.  cmd_matrix.c (options, native or nested), matrix_plan.c
 * (the runs as `entrylab run` command lines, prerequisites, --dry-run),
 * matrix_exec.c (one child process per boot, records); matrix_run.h: the
 * directory, plan.json, --resume, progress and signals.  --trace runs each
 * variant once as `entrylab trace` (QEMU TCG, exact counts) instead.
 */
#ifndef EL_MATRIX_H
#define EL_MATRIX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "experiment.h"
#include "host_info.h"
#include "report.h"
#include "nested.h"
#include "request.h"

#define MATRIX_MAX_ARGV (96 + 2 * (int)EL_FILES_MAX) /* room for a --file pair per file = */

enum fleet_engine { FLEET_SLURM, FLEET_PARALLEL };

struct matrix_opts {
	const char *experiment; /* as typed */
	int experiment_arg;     /* its index in argv */
	unsigned repeat;        /* -r; 0 = the file's */
	uint64_t iterations;    /* -n; 0 = the file's */
	const char *args;       /* --args; NULL = the file's */
	const char *output;     /* -o FILE: records there, the report files beside it;
				   NULL = results/<experiment>/<UTC time>/runs.jsonl */
	const char *csv_sep;    /* -x */
	bool json, dry_run, verbose;
	bool trace;             /* --trace: every variant as `entrylab trace`, once */
	double timeout_s;       /* --timeout; 0 = the file's */
	const char *only;       /* --only V1,V2 */
	enum el_nested_mode nested;
	bool cold;              /* --no-warm: a nested VM for this matrix alone */
	const char *resume;     /* --resume DIR (matrix_run.h) */
	const char *done_runs;  /* --done-runs LIST: internal, the host tells the nested VM
				   which runs have a record already (matrix_done_parse) */
	bool scale_seed;        /* --scale seed: the file's seed_* sizes (experiment_scale_seed) */
	bool bochs;             /* --engine bochs: every boot under Bochs (harness/bochs/) */
	const char *cpu_model;  /* --cpu-model, with --engine bochs */
	const char *emit;       /* --emit ENGINE DIR: DIR (engine in emit_engine) */
	enum fleet_engine emit_engine;
	const char *hosts;      /* --hosts CLASS,...: the fleet's host classes */
	const char *run_one;    /* --run-one DIR: one task (task) of an emitted fleet */
	long task;
	bool task_given;
	const char *collect;    /* --collect DIR */
	bool fleet;             /* the options of a fleet's plan: -r goes with --trace */
};

/* One selected variant as the `entrylab run` (or, --trace, `trace`) command line it is. */
struct matrix_variant {
	unsigned index; /* in exp.variants */
	int argc;
	char *argv[MATRIX_MAX_ARGV]; /* argv[0] = "run"; points into exp or the buffers below */
	char *args_copy;             /* the benchmark arguments, split in place */
	char *file_words;            /* the --file arguments, HOST=GUEST, NUL-separated */
	char num[4][32];             /* -n, -m, --timeout values */
	char cpu[320];               /* --trace: cpu with the required features as +feat */
	char skip[384];              /* non-empty: not run, and why */
	struct el_run_request req;   /* what argv says, as the request each boot starts from */
	struct el_estimate est;      /* one boot's expected cost (matrix_estimate) */
};

struct matrix {
	struct matrix_opts o;
	char path[4096];
	struct el_experiment exp;
	unsigned repeat;
	struct matrix_variant v[EXP_MAX_VARIANTS];
	unsigned nv;
	char id[48];          /* experiment.id of this matrix's records: UTC start, pid */
	unsigned char *done;  /* nv x (repeat + 1): runs with a record ([0]: the skip); NULL: none */
	bool nested;      /* the boots run in the nested runner (matrix_estimate) */
};

/* Selection (--only), overrides, requests (and their command lines), each checked. 0 or EL_EXIT_*. */
int matrix_plan(struct matrix *m);
/* Marks variants whose required features this host's KVM lacks (needs a usable /dev/kvm). */
void matrix_prerequisites(struct matrix *m);
/* --dry-run: the runs it would do; checked says whether prerequisites were evaluated. */
void matrix_print_plan(FILE *f, const struct matrix *m, bool checked, const char *output);
/*
 * Runs everything natively that is not done yet (m->done), each record
 * appended to out as it completes, a progress line once it is on disk.
 * Stops early when out fails (EL_EXIT_VMM) or a signal asks
 * (matrix_signal.c: the boot in flight is abandoned, 128 + signal).
 * Otherwise the exit status of the runs.
 */
struct record_out;
int matrix_exec(struct matrix *m, struct record_out *out);
/*
 * matrix_exec.c's record of a run that did not boot (status and detail,
 * e.g. a skip or a fleet task on the wrong CPU), and the "experiment"
 * object every matrix record carries (run 0: a skip record).
 */
struct json_object *matrix_record_without_run(const struct matrix *m,
					      const struct matrix_variant *mv,
					      const struct el_host_info *host,
					      enum el_run_status status, const char *detail);
void matrix_tag(struct json_object *rec, const struct matrix *m, const struct matrix_variant *mv,
		unsigned run);
/*
 * matrix_estimate.c, after matrix_plan: each variant's boot estimated
 * (natively or nested) and, without a --timeout or file timeout, its
 * timeout derived from the work; a given timeout shorter than an estimate
 * is EL_EXIT_USAGE, printed with the fix.  matrix_boot_timeout: the longest
 * boot timeout (the nested session's deadline is it times the boots).
 */
int matrix_estimate(struct matrix *m, bool nested);
double matrix_boot_timeout(const struct matrix *m);
/* --dry-run: each variant's estimated boot, its timeout, the whole matrix. */
void matrix_print_estimate(FILE *f, const struct matrix *m);
void matrix_free(struct matrix *m);

#endif
