/*
 * The comparison report of `entrylab matrix` and `entrylab compare`: runs
 * (records) in groups (a variant, or one bench/cpu/append setting), and per
 * group and metric the mean, its relative standard error as perf prints it,
 * and the change against the group's baseline.  Records are the only input,
 * so a report from a results file is the report the matrix printed.
 */
#ifndef EL_REPORT_H
#define EL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "entrylab/abi.h"
#include "run.h"
#include "metric.h"
#include "stats.h"

#define REPORT_MAX_METRICS (METRIC_MAX_CHOSEN + 16)

struct json_object;

struct report_group {
	char *name;
	char *bench, *cpu, *append; /* the setting, for the legend */
	int baseline;               /* group its deltas are against; -1: the report's */
	unsigned ok, failed, skipped;
	char reason[256];           /* why the first run was skipped or failed */
	struct json_object *runs;   /* array: the ok records */
};

struct report {
	struct report_group *g;
	unsigned n, cap;
	struct metric m[REPORT_MAX_METRICS];
	unsigned nm;
	int base;          /* the report's baseline group */
	bool nested;       /* a record came from the nested runner */
	char host[192];    /* the first record's host, for the header */
};

/* Why a cell has no % change against its baseline (report_cell.delta is NaN). */
enum report_no_delta {
	ND_NONE,       /* delta is a number */
	ND_BASELINE,   /* the group is its own baseline */
	ND_NO_BASE,    /* the baseline has no value (skipped, failed, not counted) */
	ND_OTHER_KIND, /* the baseline ran another benchmark: its iterations are other units */
	ND_NEAR_ZERO,  /* the baseline is ~0: % of it means nothing (report_cell.c) */
	ND_NO_VALUE,   /* this group has no value */
};

/* One group x metric. */
struct report_cell {
	enum metric_status status; /* MS_OK when at least one run gave a value */
	unsigned n;                /* runs that gave a value */
	unsigned runs;             /* ok runs of the group */
	double mean;
	double rse;                /* percent; NaN with fewer than two values */
	double delta;              /* percent against the baseline's mean; NaN if none */
	double stddev, min, max;   /* of the runs' values; stddev NaN with fewer than two */
	double ci95;               /* half-width of the 95% confidence interval of the mean */
	double total, per_iter;    /* mean run total / per-iteration value; NaN where none */
	struct stats s;            /* the values */
	/* against the baseline: */
	enum report_no_delta no_delta;
	bool compared;             /* the baseline has a value of the same kind: w is valid */
	struct welch w;            /* this mean less the baseline's, Welch's t-test */
	double delta_se;           /* standard error of delta, in percent points; NaN if none */
};

/* "n/a (baseline ~0)" and friends for a cell without a delta; "" for ND_NONE. */
const char *report_no_delta_text(enum report_no_delta nd);

/* How report_cell() decides a baseline is ~0 (documented in harness/report/README.md). */
#define REPORT_NEAR_ZERO_SE     2.0  /* |mean| <= 2 standard errors of it */
#define REPORT_NEAR_ZERO_EVENTS 0.01 /* event counts: under 1 per 100 iterations */
#define REPORT_NEAR_ZERO_REL    0.01 /* under 1% of the value compared with it */

void report_init(struct report *r);
void report_free(struct report *r);

/* Adds a group (strings copied); returns its index, -1 when out of memory. */
int report_group(struct report *r, const char *name, const char *bench, const char *cpu,
		 const char *append);
int report_find(const struct report *r, const char *name);

/* The string at a dotted path of a record ("host.cpu_model"), NULL if none. */
const char *report_str_at(struct json_object *rec, const char *path);
/* Group g's first ok record; g < 0: the report's first.  NULL if none. */
struct json_object *report_first_run(const struct report *r, int g);

/* Files one record under group g: ok, failed or skipped (rec is not taken). */
void report_add(struct report *r, int g, struct json_object *rec);

/* Adds a metric column; 0, or -1 with the reason in err. */
int report_metric(struct report *r, const char *text, const char *const *events, size_t n,
		  char *err, size_t errlen);
/* Every ok record is an `entrylab trace` record (exact counts), and there is one. */
bool report_all_traces(const struct report *r);
/* The default columns, then one per counter seen in the records. */
void report_default_metrics(struct report *r);

/* report_select.c: the columns (and baseline) as a command asks for them. */
/*
 * An experiment's metrics (n of them), each with the runs' events (a
 * comma-separated list, NULL none) as the counters it may name; without
 * metrics the default columns, plus one for each requested event none of
 * them shows, counted or not.
 */
void report_experiment_columns(struct report *r, const char *const *metrics, unsigned n,
			       const char *events);
/*
 * The columns of a trace (exact instruction counts, by privilege; no PMU,
 * no timed region): trace_kernel, trace_user, then the metrics a trace can
 * give.  The others go into dropped, ", "-separated ("" when none).
 */
void report_trace_columns(struct report *r, const char *const *metrics, unsigned n,
			  char *dropped, size_t len);
/* A list ("ns, cycles:k"; NULL: the default columns): 0, or -1 with the bad one in err. */
int report_metric_list(struct report *r, const char *list, char *err, size_t errlen);
/* The group a --baseline names: by name, else numbered from 1; -1 none. */
int report_baseline_find(const struct report *r, const char *want);

/*
 * Every group without a baseline gets the report's (r->base), or when that
 * one ran another benchmark, the first group of its own benchmark.
 */
void report_resolve_baselines(struct report *r);

/* Statistics of group g for r->m[m] (report_cell_of: for any metric), and its comparison. */
void report_cell(const struct report *r, unsigned g, unsigned m, struct report_cell *c);
void report_cell_of(const struct report *r, unsigned g, const struct metric *m,
		    struct report_cell *c);

/*
 * Metrics derived from r->m that the reports add: IPC (instructions/cycles,
 * label "IPC" or "IPC:k") for each cycles[:s] column with an instructions
 * column of the same suffix.  Returns how many were written to out.
 */
unsigned report_derived_metrics(const struct report *r, struct metric *out, unsigned max);

/*
 * Every column a report prints: r->m, then extra (n of them; metrics not
 * already there by label), then report_derived_metrics().  Returns the count.
 */
unsigned report_all_metrics(const struct report *r, const struct metric *extra, unsigned n,
			    struct metric *out, unsigned max);

/* report_table.c: the human table; report_machine.c: CSV (-x SEP) and JSON lines. */
void report_print_table(FILE *f, const struct report *r);
void report_print_csv(FILE *f, const struct report *r, const char *sep);
void report_print_json(FILE *f, const struct report *r);
/* The CSV columns (summary.csv's header), and one row per group x metric of m. */
void report_csv_header(FILE *f, const char *sep);
void report_csv_rows(FILE *f, const struct report *r, const char *sep, const struct metric *m,
		     unsigned nm);
/* The test every comparison uses, as the reports name it. */
#define REPORT_TEST_NAME "Welch's t-test (unequal variances), two-sided, significant at p < 0.05"
/* A cell's test in words: "significant (p=0.003)", "within noise (p=0.4)", "no test (<2 runs)". */
void report_test_text(const struct report_cell *c, char *buf, size_t len);
/* 1234567.891 -> "1,234,567.89"; decimals < 0: 2, or 4 below 1. */
void report_format_value(double v, int decimals, char *buf, size_t len);

/* Detail, register dump and console tail of a run that did not end well (report_problem.c). */
void report_problem(FILE *f, const struct el_run_result *res);

#endif
