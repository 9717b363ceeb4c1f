/*
 * Experiment files (harness/experiments/NAME.ini, format in the README there):
 * one benchmark setting, the variants to compare, how often, against which
 * baseline and with which report columns.  Loaded and checked completely
 * before anything boots; every problem is reported as FILE:LINE: what; fix.
 */
#ifndef EL_EXPERIMENT_H
#define EL_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "el_limits.h"
#include "files.h"
#include "metric.h"
#include "run.h"

#define EXP_MAX_VARIANTS 256
#define EXP_MAX_METRICS METRIC_MAX_CHOSEN
#define EXP_NAME_MAX 48
#define EXP_METRIC_MAX 64
#define EXP_MAX_HOSTS 32

/* The keys of both section kinds; exp_keys[] (experiment_parse.c) says where each is allowed. */
enum exp_key {
	EK_NAME,
	EK_DESCRIPTION,
	EK_SEED,
	EK_BENCH,
	EK_ARGS,
	EK_ITERATIONS,
	EK_EVENTS,
	EK_REPEAT,
	EK_CPU,
	EK_APPEND,
	EK_MEMORY,
	EK_TIMEOUT,
	EK_BASELINE,
	EK_METRICS,
	EK_SEED_ARGS,       /* the seed's scale (experiment_seed.c): `--scale seed` uses them */
	EK_SEED_ITERATIONS,
	EK_SEED_REPEAT,
	EK_REQUIRES,
	EK_HEADLINE, /* report.md: the seed's table columns ("iterations/s as lseeks/s") */
	EK_LABEL,    /* report.md: a variant's row label in that table ("no global") */
	EK_TABLE,    /* report.md: which of the seed's tables the variant is a row of */
	EK_GUEST,    /* which kernel boots: entrylab | linux (run --guest) */
	EK_KERNEL,   /* the kernel file (run --kernel), relative to the experiment file */
	EK_REGION,   /* what is measured: marked | whole (run --region); absent: as the program says */
	EK_FILE,     /* file = HOST[=GUEST] (run --file), any number of lines: exp_files */
	EK_COUNT
};

/* A value as written (text NULL: not given) and the line it is on. */
struct exp_value {
	char *text;
	int line;
};

/*
 * The file = lines of one section, in file order (the one key that may be
 * given more than once: each line is one --file).
 */
struct exp_files {
	struct exp_value v[EL_FILES_MAX];
	unsigned n;
};

struct exp_variant {
	char name[EXP_NAME_MAX];
	int line; /* of the [variant NAME] header */
	struct exp_value kv[EK_COUNT];
	struct exp_files file_kv; /* file = lines of this [variant] */
	/* resolved by experiment_check(): what one run of this variant is */
	const char *description; /* "" if none */
	const char *bench;
	const char *args;   /* benchmark arguments, NULL = the benchmark's defaults */
	const char *cpu;    /* the variant's cpu, else the experiment's, else "host" */
	char *append;       /* the experiment's append, then the variant's */
	uint64_t iterations;/* 0 = from args */
	uint64_t requires;  /* features (bit = enum el_feature) the host must offer */
	const char *seed_args;    /* --scale seed: args, NULL = as above */
	uint64_t seed_iterations; /* --scale seed: iterations, 0 = as above */
	int baseline;       /* index of the variant its deltas are against */
	const char *label;  /* row label in report.md: label, else the name */
	const char *table;  /* report.md table: "" = the one table */
	enum el_guest_kind guest; /* guest = ..., the variant's, else the experiment's */
	char *kernel;       /* kernel = FILE resolved against the file's directory; NULL: the default */
	enum el_region_scope region; /* region = ..., the variant's, else the experiment's; NONE: absent */
	/* file = lines, the experiment's then the variant's, HOST made absolute (malloc'd) */
	struct el_file *files;
	unsigned nfiles;
};

/*
 * [host CLASS]: one host class of a fleet (docs/fleet.md): the Slurm
 * constraint that routes its tasks to nodes (default: CLASS itself) and,
 * with expect = VENDOR FAMILY MODEL, the CPU those nodes must have; a task
 * that lands on another CPU is recorded unsupported (fleet_task.c).
 */
struct exp_host {
	char name[EXP_NAME_MAX];
	int line; /* of the [host CLASS] header */
	struct exp_value constraint, expect;
	/* resolved by experiment_check() */
	bool has_expect;
	char vendor[13]; /* "GenuineIntel", as CPUID leaf 0 spells it */
	unsigned family, model; /* decoded with the extended fields (host_decode_signature) */
};

struct el_experiment {
	char *path;
	/* relative kernel = and file = names are taken from this file's directory: path,
	   or the original of the copy a fleet directory keeps (experiment_load_as) */
	char *origin;
	int line; /* of the [experiment] header, 0 if there is none */
	bool read_ok; /* the file could be read (problems or not) */
	struct exp_value kv[EK_COUNT];
	struct exp_files file_kv; /* file = lines of [experiment]: every variant's */
	struct exp_variant variants[EXP_MAX_VARIANTS];
	unsigned nvariants;
	struct exp_host hosts[EXP_MAX_HOSTS];
	unsigned nhosts;
	/* resolved by experiment_check() */
	const char *name, *description, *seed;
	const char *events;   /* NULL = none */
	unsigned repeat;
	uint64_t mem_bytes;   /* 0 = entrylab run's default */
	double timeout_s;     /* 0 = entrylab run's default */
	char metrics[EXP_MAX_METRICS][EXP_METRIC_MAX];
	unsigned nmetrics;    /* 0 = the default columns */
	unsigned seed_repeat; /* --scale seed: runs per variant, 0 = repeat */
	bool has_seed_scale;  /* any seed_* key: `--scale seed` means something */
	int baseline;         /* index of the [experiment] baseline variant */
};

struct report_meta;
struct report_row;

/*
 * experiment_report.c: what report_save() needs from the experiment (name,
 * seed, description, headline, and per variant its row label and table,
 * into rows[], room for exp->nvariants).  The caller adds command, scale,
 * runs_file, planned, kept and interrupted.
 */
void experiment_report_meta(const struct el_experiment *exp, struct report_row *rows,
			    struct report_meta *meta);

/* Name of a key as written in files. */
const char *experiment_key_name(enum exp_key k);

/*
 * Reads and checks path.  Every problem goes to err as "PATH:LINE: problem;
 * fix" (append problems also get the knob details on stderr).  Returns the
 * number of problems (0: *exp is ready; free it in any case).
 */
int experiment_load(const char *path, struct el_experiment *exp, FILE *err);
/* experiment_load, relative names resolved against origin's directory (NULL: path's). */
int experiment_load_as(const char *path, const char *origin, struct el_experiment *exp,
		       FILE *err);
void experiment_free(struct el_experiment *exp);
/* Index of the [host CLASS] called name, -1 if none. */
int experiment_host(const struct el_experiment *exp, const char *name);
/* "GenuineIntel 6 85" into h (vendor, family, model; decimal or 0x hex).  0 or -1. */
int experiment_parse_expect(const char *text, struct exp_host *h);

/* experiment_parse.c: the file into exp->kv/variants; problems counted. */
int experiment_parse(const char *path, struct el_experiment *exp, FILE *err);
/* experiment_check.c: validate and resolve what experiment_parse() read. */
int experiment_check(struct el_experiment *exp, FILE *err);
/*
 * --scale seed (experiment_seed.c): every variant's args and iterations
 * replaced by its seed_args / seed_iterations where the file gives them,
 * repeat by seed_repeat.  0, or -1 (printed, with the fix) when the file
 * has no seed scale.
 */
int experiment_scale_seed(struct el_experiment *exp, FILE *err);

/* Index of the variant called name, -1 if none. */
int experiment_variant(const struct el_experiment *exp, const char *name);

/*
 * experiment_find.c.  Where shipped experiments live: $ENTRYLAB_EXPERIMENTS,
 * else harness/experiments of the source tree this entrylab was built from.
 */
const char *experiment_dir(void);
/*
 * EXPERIMENT as the user typed it -> a file path: an existing file as is,
 * else DIR/EXPERIMENT.ini, else the file in DIR whose [experiment] name is
 * EXPERIMENT.  Returns 0, or -1 after printing what was tried and the fix.
 */
int experiment_resolve(const char *what, char *path, size_t len);
/* The .ini files of experiment_dir(), sorted; returns how many (experiment_list_free). */
int experiment_list_files(char ***paths);
void experiment_list_free(char **paths, int n);

#endif
