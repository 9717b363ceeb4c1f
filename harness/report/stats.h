/*
 * Run-to-run statistics as `perf stat -r` reports them: the mean and the
 * relative standard error of the mean, "( +- x.xx% )" (Welford's running
 * mean and M2; variance M2/(n-1); stderr sqrt(variance/n); 100*stderr/mean),
 * min and max; and the comparison of two samples (stats_welch.c): Welch's
 * t-test, two-sided, with the Student t distribution computed here.
 */
#ifndef EL_STATS_H
#define EL_STATS_H

#include <stdbool.h>

struct stats {
	unsigned n;
	double mean, m2;
	double min, max; /* NaN before the first value */
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, double v);
/* Sample standard deviation sqrt(M2/(n-1)); 0 with fewer than two values. */
double stats_stddev(const struct stats *s);
/* Standard error of the mean; 0 with fewer than two values (as perf). */
double stats_stderr(const struct stats *s);
/* 100 * stderr / mean, in percent; 0 when the mean is 0 (as perf). */
double stats_rel_stderr(const struct stats *s);
/* (value - base) / base in percent; NaN when base is 0 or either is not finite. */
double stats_delta_pct(double value, double base);

/* Significance level of every test the reports make (two-sided). */
#define STATS_ALPHA 0.05

/* Welch's unequal-variances t-test of b against a (b - a). */
struct welch {
	bool tested;  /* false: fewer than two values on a side, nothing below but diff */
	double diff;  /* mean(b) - mean(a) */
	double se;    /* standard error of diff: sqrt(var_a/n_a + var_b/n_b) */
	double t;     /* diff / se; +-INFINITY when se is 0 and diff is not */
	double df;    /* Welch-Satterthwaite degrees of freedom */
	double p;     /* two-sided p-value */
	bool significant; /* p < STATS_ALPHA */
};

void stats_welch(const struct stats *a, const struct stats *b, struct welch *w);

/* Regularized incomplete beta function I_x(a, b), 0 <= x <= 1, a, b > 0. */
double stats_incbeta(double x, double a, double b);
/* P(|T| >= |t|) for Student's t with df degrees of freedom (df > 0). */
double stats_t_pvalue(double t, double df);
/* The t with P(|T| >= t) = alpha: 4.303 for df 2, alpha 0.05. */
double stats_t_critical(double df, double alpha);
/* Half-width of the 95% confidence interval of the mean; NaN with fewer than two values. */
double stats_ci95(const struct stats *s);

#endif
