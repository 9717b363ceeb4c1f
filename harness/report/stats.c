/*
 * perf's definitions (tools/perf/util/stat.c: update_stats, stddev_stats,
 * rel_stddev_stats), reimplemented so the "+-" we print means what a perf
 * user reads into it: the uncertainty of the mean, not the spread of runs.
 */
#include <math.h>

#include "stats.h"

void stats_init(struct stats *s)
{
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
	s->min = NAN;
	s->max = NAN;
}

void stats_add(struct stats *s, double v)
{
	double delta;

	s->n++;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
	if (s->n == 1 || v < s->min)
		s->min = v;
	if (s->n == 1 || v > s->max)
		s->max = v;
}

double stats_stddev(const struct stats *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1));
}

double stats_stderr(const struct stats *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double stats_rel_stderr(const struct stats *s)
{
	if (s->mean == 0)
		return 0;
	return 100.0 * stats_stderr(s) / fabs(s->mean);
}

double stats_delta_pct(double value, double base)
{
	if (base == 0 || !isfinite(value) || !isfinite(base))
		return NAN;
	return 100.0 * (value - base) / fabs(base);
}
