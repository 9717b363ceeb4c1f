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

/* One group x metric. */
struct report_cell {
	enum metric_status status; /* MS_OK when at least one run gave a value */
	unsigned n;                /* runs that gave a value */
	unsigned runs;             /* ok runs of the group */
	double mean;
	double rse;                /* percent; NaN with fewer than two values */
	double delta;              /* percent against the baseline's mean; NaN if none */
};

void report_init(struct report *r);
void report_free(struct report *r);

/* Adds a group (strings copied); returns its index, -1 when out of memory. */
int report_group(struct report *r, const char *name, const char *bench, const char *cpu,
		 const char *append);
int report_find(const struct report *r, const char *name);

/* Files one record under group g: ok, failed or skipped (rec is not taken). */
void report_add(struct report *r, int g, struct json_object *rec);

/* Adds a metric column; 0, or -1 with the reason in err. */
int report_metric(struct report *r, const char *text, const char *const *events, size_t n,
		  char *err, size_t errlen);
/* The default columns, then one per counter seen in the records. */
void report_default_metrics(struct report *r);

/*
 * Every group without a baseline gets the report's (r->base), or when that
 * one ran another benchmark, the first group of its own benchmark.
 */
void report_resolve_baselines(struct report *r);

void report_cell(const struct report *r, unsigned g, unsigned m, struct report_cell *c);

/* report_table.c: the human table; report_machine.c: CSV (-x SEP) and JSON lines. */
void report_print_table(FILE *f, const struct report *r);
void report_print_csv(FILE *f, const struct report *r, const char *sep);
void report_print_json(FILE *f, const struct report *r);
/* 1234567.891 -> "1,234,567.89"; decimals < 0: 2, or 4 below 1. */
void report_format_value(double v, int decimals, char *buf, size_t len);

/* Detail, register dump and console tail of a run that did not end well (report_problem.c). */
void report_problem(FILE *f, const struct el_run_result *res);

#endif
