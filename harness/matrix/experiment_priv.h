/*
 * Inside the experiment loader: the problem reporter and the value checks
 * (experiment_values.c) that experiment_check.c applies to each key.
 */
#ifndef EL_EXPERIMENT_PRIV_H
#define EL_EXPERIMENT_PRIV_H

#include "entrylab/abi.h"
#include "experiment.h"

struct check_ctx {
	struct el_experiment *exp;
	FILE *err;
	int problems;
	char *events_buf; /* the events, NUL-separated; events[] point into it */
	const char *events[EL_MAX_COUNTERS];
	size_t nevents;
};

/* "PATH:LINE: message" (line 0: "PATH: message") to c->err, counted. */
__attribute__((format(printf, 3, 4)))
void check_problem(struct check_ctx *c, int line, const char *fmt, ...);

/* Each checks the value of key k at v (nothing when not given). */
bool check_word(struct check_ctx *c, enum exp_key k, const struct exp_value *v);
void check_cpu(struct check_ctx *c, const struct exp_value *v, uint64_t *requires);
void check_append(struct check_ctx *c, const struct exp_value *v);
/* guest = entrylab|linux into *out; kernel = FILE resolved (malloc'd, NULL: none or bad). */
bool check_guest(struct check_ctx *c, const struct exp_value *v, enum el_guest_kind *out);
/* region = marked | whole into *out (unchanged when absent or wrong); whether it was given right. */
bool check_region(struct check_ctx *c, const struct exp_value *v, enum el_region_scope *out);
char *check_kernel(struct check_ctx *c, const struct exp_value *v);
/* file = HOST[=GUEST] into *out, HOST made absolute; false when wrong (reported). */
bool check_file(struct check_ctx *c, const struct exp_value *v, struct el_file *out);
void check_requires(struct check_ctx *c, const struct exp_value *v, uint64_t *bits);
bool check_uint(struct check_ctx *c, enum exp_key k, const struct exp_value *v, uint64_t min,
		uint64_t max, uint64_t *out);
bool check_size(struct check_ctx *c, enum exp_key k, const struct exp_value *v, uint64_t *out);
bool check_seconds(struct check_ctx *c, enum exp_key k, const struct exp_value *v, double *out);
void check_events(struct check_ctx *c, struct exp_value *v);
void check_metrics(struct check_ctx *c, const struct exp_value *v);
/* experiment_report.c: headline, and each variant's label and table (resolved into it). */
void check_report_keys(struct check_ctx *c);
/* Benchmark arguments: at most 62 words, and room for -n's argument. */
void check_args(struct check_ctx *c, const char *bench, const char *args, int args_line,
		int iterations_line);

/* The seed_* keys (experiment_seed.c), after the variants are resolved. */
void check_seed_scale(struct check_ctx *c);

/* experiment_host.c: each [host CLASS]'s constraint and expect. */
void check_hosts(struct check_ctx *c);

#endif
