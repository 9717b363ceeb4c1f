/*
 * Fleets (docs/fleet.md): a matrix spread over many hosts by an engine that
 * exists already, Slurm job arrays or GNU parallel over ssh.
 *
 *   `matrix EXPERIMENT --emit slurm|parallel DIR [--hosts A,B]` (fleet_emit.c)
 *	DIR/plan.json (a matrix plan, so the nested runner can resume it, with
 *	a "fleet" object: classes and tasks), DIR/experiment.ini (the file,
 *	byte for byte; its hash is the plan's), the engine's scripts and
 *	DIR/submit.sh.  Task ids count from 0, class by class, then variant,
 *	then run; a Slurm array index is the task less its class's first.
 *   `matrix --run-one DIR --task ID` (cli/matrix_fleet.c, fleet_task.c)
 *	one task, its record (tagged with the host's facts) in a file of its
 *	own: DIR/parts/task-ID.json, written to a temporary name and renamed.
 *   `matrix --collect DIR` (fleet_collect.c) the parts checked and merged
 *	into runs.jsonl and the report, one section per host class; every
 *	missing or failed task named with the command that runs it again.
 */
#ifndef EL_FLEET_H
#define EL_FLEET_H

#include <stdbool.h>

#include "matrix.h"
#include "matrix_run.h"

#define FLEET_COPY "experiment.ini" /* the experiment file, as it was emitted */
#define FLEET_PARTS "parts"         /* one record file per task */
#define FLEET_MAX_TASKS 100000

/* collect's exit statuses besides 0 and EL_EXIT_* (README.md, "Exit status") */
#define FLEET_EXIT_MISSING 1 /* tasks have no record yet: resubmit them (printed) */
#define FLEET_EXIT_FAILED 2  /* every task has a record, some did not end ok */

struct fleet_class {
	char name[EXP_NAME_MAX];
	char constraint[256]; /* the Slurm --constraint; "" none */
	char expect[64];      /* "VENDOR FAMILY MODEL" a node must show; "" any */
	unsigned first, n;    /* its tasks: first .. first + n - 1 */
};

struct fleet_task {
	unsigned cls;     /* index into fleet.c */
	unsigned variant; /* selected-variant index (matrix.v) */
	unsigned run;     /* 1-based */
};

struct fleet {
	enum fleet_engine engine;
	char dir[4096];     /* absolute, no trailing slash */
	char version[96];   /* the entrylab that emitted it */
	char origin[4096];  /* the experiment file the copy was taken from */
	char entrylab[4096];/* the entrylab binary the scripts run (absolute) */
	struct fleet_class c[EXP_MAX_HOSTS];
	unsigned nc;
	struct fleet_task *t;
	unsigned nt;
};

/* "slurm" | "parallel" -> engine.  0 or -1. */
int fleet_engine_parse(const char *word, enum fleet_engine *e);
const char *fleet_engine_name(enum fleet_engine e);

/*
 * fleet_plan.c.  The classes (--hosts CLASS,... ; without it the
 * experiment's [host CLASS] sections; without those one class "any") and
 * the tasks of m's plan (after matrix_plan).  0 or EL_EXIT_USAGE (printed).
 */
int fleet_layout(const struct matrix *m, const char *hosts, struct fleet *f);
/* The plan's "fleet" object, and read back from a plan (matrix_plan_read's s->obj, the tasks
 * bound to the variants of m, the matrix its options replay). */
struct json_object *fleet_json(const struct fleet *f, const struct matrix *m);
int fleet_from_json(struct json_object *plan, const char *dir, const struct matrix *m,
		    struct fleet *f);
/* Task id of (class, selected variant, run), or -1. */
long fleet_task_id(const struct fleet *f, unsigned cls, unsigned variant, unsigned run);
void fleet_free(struct fleet *f);
/* A saved plan's fleet.origin (the experiment the copy came from), NULL: not a fleet. */
const char *fleet_origin(const struct matrix_saved *s);

/*
 * fleet_emit.c: DIR made (it must not exist, or be empty), the copy, plan.json
 * (argv: the matrix options without --emit and --hosts), the scripts.
 * Prints what it wrote and how to submit it.  0 or EL_EXIT_USAGE/EL_EXIT_VMM.
 */
int fleet_emit(struct matrix *m, struct fleet *f, const char *command, int argc,
	       char *const *argv);

/*
 * The command that runs tasks again ("sbatch --array=0,3 DIR/slurm/A.sbatch";
 * parallel's with the task ids), for the tasks of class c whose flag in
 * want[] (indexed by task id) is set.  Into buf; "" when none.
 */
void fleet_resubmit(const struct fleet *f, unsigned c, const bool *want, char *buf, size_t len);

/* ---- fleet_task.c: one task on its node ---- */

/*
 * The facts of this node a fleet record adds (its "fleet" object): host
 * name, the engine's job and task ids, class, task, microcode, SMT,
 * frequency governor, the CPU pinned to (-1: none).
 */
struct json_object *fleet_node_json(const struct fleet *f, unsigned task, int pinned_cpu);
/*
 * Whether this node's CPU is what class c expects; when not, why (with
 * this node's identity and the fix) in why.
 */
bool fleet_expect_ok(const struct fleet *f, unsigned c, char *why, size_t len);
/* The CPU a task pins its vCPU to: the first this process may run on (Slurm's allocation). */
int fleet_pin_cpu(void);
/* DIR/parts/task-ID.json, written whole (temporary name, fsync, rename).  0 or -1 (printed). */
int fleet_part_write(const struct fleet *f, unsigned task, struct json_object *rec);
/* The part's path. */
void fleet_part_path(const struct fleet *f, unsigned task, char *buf, size_t len);

/* ---- fleet_collect.c: the parts read back ---- */

enum fleet_state {
	FT_MISSING,     /* no part: never ran, cancelled, lost */
	FT_REFUSED,     /* a part that is not this task's (why says how) */
	FT_OK,          /* status ok */
	FT_UNSUPPORTED, /* the node or the host's KVM could not run it: by design, not counted */
	FT_FAILED,      /* any other status: crash, timeout, VMM error */
	FT_STATES
};

struct fleet_parts {
	struct json_object **rec; /* per task: its record (OK, UNSUPPORTED, FAILED), else NULL */
	enum fleet_state *st;
	char (*why)[320];         /* per task: a refusal's or failure's reason */
	unsigned count[FT_STATES];
};

/*
 * Every task's part read and checked against the plan: the entrylab
 * version, experiment name and id, task, class, variant and run.  0, or
 * EL_EXIT_VMM out of memory.
 */
int fleet_parts_load(const struct matrix *m, const struct fleet *f, struct fleet_parts *p);
void fleet_parts_free(const struct fleet *f, struct fleet_parts *p);
/* DIR/runs.jsonl: the records of the parts, in task order, written whole.  0 or -1 (printed). */
int fleet_runs_write(const struct fleet *f, const struct fleet_parts *p);
/*
 * The tasks that are missing, refused or failed, each with its class,
 * variant, run and why, then per class the command that runs them again.
 * Returns the exit status: FLEET_EXIT_MISSING, FLEET_EXIT_FAILED or 0.
 */
int fleet_todo_print(FILE *out, const struct matrix *m, const struct fleet *f,
		     const struct fleet_parts *p);

#endif
