/*
 * Run-to-run statistics as `perf stat -r` reports them: the mean and the
 * relative standard error of the mean, "( +- x.xx% )" (Welford's running
 * mean and M2; variance M2/(n-1); stderr sqrt(variance/n); 100*stderr/mean).
 */
#ifndef EL_STATS_H
#define EL_STATS_H

struct stats {
	unsigned n;
	double mean, m2;
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, double v);
/* Standard error of the mean; 0 with fewer than two values (as perf). */
double stats_stderr(const struct stats *s);
/* 100 * stderr / mean, in percent; 0 when the mean is 0 (as perf). */
double stats_rel_stderr(const struct stats *s);
/* (value - base) / base in percent; NaN when base is 0 or either is not finite. */
double stats_delta_pct(double value, double base);

#endif
