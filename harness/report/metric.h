/*
 * Report columns ("metrics"): a quantity of one run, per iteration by
 * default, or a ratio of two: "ns" is ns per iteration, "ns/page_faults" ns
 * per page fault, "iterations/s" a rate, "cycles:k" a counter per iteration.
 * Quantities come from a record: bench.iterations, region.*, counters.* (value
 * less markers, as the record's per_iter).
 */
#ifndef EL_METRIC_H
#define EL_METRIC_H

#include <stdbool.h>
#include <stddef.h>

/* Metrics an experiment file or a report may name (beyond the defaults). */
#define METRIC_MAX_CHOSEN 24

struct json_object;

#define METRIC_NAME_MAX 64

enum metric_base {
	MB_ITERATIONS,  /* bench.iterations */
	MB_TICKS,       /* region.tsc_ticks */
	MB_NS,          /* region.tsc_ticks in ns (region.tsc_khz) */
	MB_S,           /* the same in seconds */
	MB_SYSCALLS,    /* region.syscalls */
	MB_PAGE_FAULTS, /* region.page_faults */
	MB_INTERRUPTS,  /* region.interrupts */
	MB_EXITS,       /* region.exits: VM exits to the VMM in the region */
	MB_TRACE_USER,  /* trace.user: instructions at CPL3 in the region (entrylab trace) */
	MB_TRACE_KERNEL,/* trace.kernel: instructions at CPL0 in the region */
	MB_RUN,         /* 1: "X/run" is X over the whole run, a total */
	MB_COUNTER,     /* counters.<name>.value */
};

struct metric_term {
	enum metric_base base;
	char counter[METRIC_NAME_MAX];
};

struct metric {
	struct metric_term num, den;
	char label[2 * METRIC_NAME_MAX + 2]; /* column title: "ns/iter", "ns/page_faults" */
	char text[2 * METRIC_NAME_MAX + 2];  /* as written: "ns", "s/run", "cycles:k" */
};

/* What kind of value a metric is, for totals and the near-zero rule of comparisons. */
enum metric_kind {
	MK_PER_ITER, /* X per iteration: has a total (X over the run) */
	MK_TOTAL,    /* X/run: has a per-iteration value (X / iterations) */
	MK_RATIO,    /* anything else (ns/page_faults, iterations/s, IPC): neither */
};

enum metric_kind metric_kind(const struct metric *m);
/* An event count (syscalls, page_faults, interrupts, exits) per iteration or per run. */
bool metric_is_event_count(const struct metric *m);
/*
 * Whether a trace (`entrylab trace`, QEMU TCG) measures m exactly: only
 * instruction counts and iterations.  Times there come from TCG's virtual
 * TSC and PMU events do not exist, so a trace report shows neither.
 */
bool metric_traced(const struct metric *m);
/* The run's total (MK_PER_ITER: the numerator) or per-iteration value (MK_TOTAL). */
enum metric_status metric_eval_other(const struct metric *m, struct json_object *rec,
				     double *out);

/* How one run's value came out; the report prints the non-OK ones as perf does. */
enum metric_status {
	MS_OK,
	MS_NOT_SUPPORTED, /* counters.X.status "not-supported" */
	MS_NOT_COUNTED,   /* counters.X.status "not-counted", or no such counter */
	MS_MISSING,       /* no region, no iterations, or a zero denominator */
};

/*
 * Parses one metric.  events (n of them) are the counter names the metric
 * may use; NULL accepts any name that is not a built-in quantity.  A whole
 * text that is one of events is that counter (perf names may contain '/').
 * Returns 0, or -1 with a message naming the problem and the fix in err.
 */
int metric_parse(const char *text, const char *const *events, size_t n, struct metric *m,
		 char *err, size_t errlen);

/* The default columns: ticks, ns, syscalls, page_faults, interrupts per iteration. */
size_t metric_defaults(struct metric *out, size_t max, bool traces);

/* The value of m in one record. */
enum metric_status metric_eval(const struct metric *m, struct json_object *rec, double *out);

/* "<not supported>" and friends, perf's spelling; NULL for MS_OK. */
const char *metric_status_text(enum metric_status s);

#endif
