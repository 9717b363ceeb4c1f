/*
 * What `entrylab run` prints: the header of the run(s) (summary.c), then
 * ONE perf-stat-like aggregate over the runs of -r N (summary_aggregate.c,
 * lines from summary_counters.c): the table, -x CSV rows in perf stat's column
 * order, or --json lines (cli/README.md documents the three).
 */
#ifndef EL_SUMMARY_H
#define EL_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "entrylab/abi.h"
#include "host_info.h"
#include "run.h"

/* One quantity over the runs (Welford): mean, M2, min, max. */
struct summary_acc {
	unsigned n;
	double mean, m2, min, max;
};
void summary_acc_add(struct summary_acc *a, double v);
/* Standard error of the mean, sqrt(M2 / (n-1) / n); 0 below two values (perf's stddev_stats). */
double summary_acc_stderr(const struct summary_acc *a);
/* perf stat's ( +- x% ): 100 * stderr / |mean|; 0 below two values or for a zero mean. */
double summary_acc_rse(const struct summary_acc *a);
/* v with thousands grouped, decimals only when it is not whole: "1,234,567", "12.50". */
void summary_grouped(char *buf, size_t len, double v);

/* One line of the aggregate: a region quantity or a counter. */
struct summary_row {
	char event[64];                /* "region-time", "syscalls", "cycles:k" */
	const char *unit;              /* "msec" or "" */
	enum el_counter_status status; /* why there is no value when val.n == 0 */
	struct summary_acc val;        /* the value, per run that measured it */
	struct summary_acc metric;     /* the value per iteration; n == 0: none */
	struct summary_acc runtime;    /* the region's ns in those runs */
	char metric_unit[48];          /* "ns per page fault", "per syscall" */
	bool metric_only;              /* a metric of its own (IPC): every earlier field empty */
};

/*
 * -x SEP: perf stat 6.1's columns, every one on every row:
 *   value SEP unit SEP event [SEP variance%] SEP run-time-ns SEP pcnt-running
 *   SEP metric-value SEP metric-unit
 * variance (perf's noise) only when repeated, as perf prints it with -r N.
 */
void summary_row_csv(FILE *f, const struct summary_row *r, const char *sep, bool repeated);
/* --json: perf stat -j's keys on one line, plus runs, min and max. */
void summary_row_json(FILE *f, const struct summary_row *r, bool repeated);
/* The table line: value, unit, event, # per iteration, ( +- x% ), min, max. */
void summary_row_table(FILE *f, const struct summary_row *r, bool repeated, unsigned runs);

#define SUMMARY_MAX_ROWS (6 + 2 * EL_MAX_COUNTERS)

/* The runs of one `entrylab run`, gathered as they complete. */
struct summary_agg {
	struct summary_row rows[SUMMARY_MAX_ROWS];
	unsigned nrows;
	/* IPC rows: instructions[:s] over cycles[:s] (event indexes), rows after the counters */
	unsigned ipc[EL_MAX_COUNTERS][2], nipc;
	unsigned runs, measured;        /* runs added; of those, with a measured region */
	unsigned status_count[EL_RUN_UNSUPPORTED + 1];
	unsigned nonzero_exits;         /* completed runs whose program exited non-zero */
	const char *unit;               /* one iteration of the bench */
	uint64_t iterations;
	struct summary_acc elapsed_s, boot_ms, wall_ms;
	bool have_first, have_boot;
	enum el_run_status first_status;
	int first_exit;
	char first_detail[512];
	struct el_report boot;          /* the first boot report: configuration shown once */
	bool have_linux;                /* --guest linux: what the first /init said of Linux */
	struct el_linux_info linux_info;
	enum el_region_scope scope;     /* what the region is (the spec's, one for all runs) */
	char missing[200];              /* why the first run without a region had none */
	/* the scheduler timer over every run) (guest.timer in each record) */
	struct {
		uint64_t interrupts, late_max_ns, fallbacks, halt_skips;
	} timer;
};

void summary_agg_init(struct summary_agg *a, const struct el_cli_run *cli);
void summary_agg_add(struct summary_agg *a, const struct el_cli_run *cli,
		     const struct el_run_result *res);
void summary_agg_csv(FILE *f, const struct summary_agg *a, const char *sep);
void summary_agg_json(FILE *f, const struct summary_agg *a);
void summary_agg_table(FILE *f, const struct summary_agg *a, const struct el_run_request *req);

/*
 * After the last run, on f: the header (status, cpu, append, the guest's
 * configuration) and the aggregate in the format asked (-x, --json or the
 * table); output is the records file, NULL to leave it unsaid.
 */
void summary_print(FILE *f, const struct el_cli_run *cli, const struct el_host_info *host,
		   const struct summary_agg *a, const char *output);
/* One line per run on stderr while -r N runs: "run 2/5: ok, region 1.234 ms". */
void summary_progress(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res,
		      unsigned i);

#endif
