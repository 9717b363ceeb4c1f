/*
 * Welch's t-test and the Student t distribution it needs.  The two-sided
 * p-value of t with df degrees of freedom is I_x(df/2, 1/2) with
 * x = df / (df + t^2), the regularized incomplete beta function, evaluated
 * by its continued fraction (modified Lentz iteration); critical values
 * come from bisection on the p-value.
 */
#include <math.h>

#include "stats.h"

#define CF_MAX_TERMS 300
#define CF_EPS       1e-15
#define CF_TINY      1e-300

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double incbeta_cf(double x, double a, double b)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
	f = d;
	for (int m = 1; m <= CF_MAX_TERMS; m++) {
		for (int odd = 0; odd < 2; odd++) {
			/* d_2m = m(b-m)x / ((a+2m-1)(a+2m)), d_2m+1 = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) */
			double num =
				odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
				    : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			double step;

			d = 1 + num * d;
			d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
			c = 1 + num / c;
			if (fabs(c) < CF_TINY)
				c = CF_TINY;
			step = c * d;
			f *= step;
			if (odd && fabs(step - 1) < CF_EPS)
				return f;
		}
	}
	return f;
}

double stats_incbeta(double x, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * incbeta_cf(x, a, b) / a;
	return 1 - front * incbeta_cf(1 - x, b, a) / b;
}

double stats_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_incbeta(df / (df + t * t), df / 2, 0.5);
}

double stats_t_critical(double df, double alpha)
{
	double lo = 0, hi = 1;

	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	while (stats_t_pvalue(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_pvalue(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_ci95(const struct stats *s)
{
	if (s->n < 2)
		return NAN;
	return stats_t_critical(s->n - 1, STATS_ALPHA) * stats_stderr(s);
}

void stats_welch(const struct stats *a, const struct stats *b, struct welch *w)
{
	double va, vb;

	w->diff = b->mean - a->mean;
	w->tested = a->n >= 2 && b->n >= 2;
	w->se = w->t = w->df = w->p = NAN;
	w->significant = false;
	if (!w->tested)
		return;
	va = a->m2 / (a->n - 1) / a->n;
	vb = b->m2 / (b->n - 1) / b->n;
	w->se = sqrt(va + vb);
	if (va + vb > 0)
		w->df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	else
		w->df = a->n + b->n - 2; /* no spread at all: any difference is exact */
	if (w->se > 0)
		w->t = w->diff / w->se;
	else
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
	w->p = stats_t_pvalue(w->t, w->df);
	w->significant = w->p < STATS_ALPHA;
}
