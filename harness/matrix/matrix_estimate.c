/*
 * What a matrix will cost before it runs: each variant's boot estimated
 * from its iterations (record/request_estimate.c), the boot's timeout
 * derived from that unless a --timeout or the file's timeout was given (and
 * such a timeout refused when it is shorter than the estimate), and the
 * estimate printed by --dry-run.  Estimates size timeouts; they are never
 * reported as measurements.
 */
#include <stdio.h>

#include "matrix.h"
#include "status.h"

/* 42 s, 7.5 min, 3.2 h */
static void duration(char *buf, size_t len, double s)
{
	if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

/* 26214400 -> "26,214,400" */
static void grouped(char *buf, size_t len, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

int matrix_estimate(struct matrix *m, bool nested)
{
	double given = m->o.timeout_s ? m->o.timeout_s : m->exp.timeout_s;
	const char *whose = m->o.timeout_s ? "--timeout" : "the file's timeout =";
	int rc = 0;

	m->nested = nested;
	if (m->o.trace)
		return 0; /* QEMU TCG with its own default (EL_TRACE_TIMEOUT) */
	for (unsigned i = 0; i < m->nv; i++) {
		struct matrix_variant *mv = &m->v[i];
		const struct exp_variant *ev = &m->exp.variants[mv->index];

		request_estimate(&mv->req, nested, &mv->est);
		if (!given) {
			mv->req.timeout_s = request_estimate_timeout(&mv->est);
			continue;
		}
		if (!mv->est.known || mv->est.run_s <= given || mv->skip[0])
			continue;
		fprintf(stderr,
			"entrylab matrix: variant '%s' (%s:%d) is estimated at ~%.0f s per "
			"boot %s (%llu %ss at ~%.0f ns + boot), longer than %s %g; give --timeout "
			"%.0f, fewer iterations, or no timeout at all (then it follows from the "
			"work)\n",
			ev->name, m->path, ev->line, mv->est.run_s,
			nested ? "in the nested runner" : "on KVM",
			(unsigned long long)mv->est.iterations, mv->est.unit, mv->est.per_iter_ns,
			whose, given, request_estimate_timeout(&mv->est));
		rc = EL_EXIT_USAGE;
	}
	return rc;
}

double matrix_boot_timeout(const struct matrix *m)
{
	double t = 0;

	for (unsigned i = 0; i < m->nv; i++)
		if (m->v[i].req.timeout_s > t)
			t = m->v[i].req.timeout_s;
	return t > 0 ? t : EL_DEFAULT_TIMEOUT;
}

void matrix_print_estimate(FILE *f, const struct matrix *m)
{
	double total = 0;
	unsigned boots = 0;
	char per[32], all[32], iters[32];

	if (m->o.trace)
		return;
	fprintf(f,
		"Estimate %s (per-iteration costs of record/request_estimate.c; not a "
		"measurement):\n",
		m->nested ? "in the nested runner" : "on KVM");
	for (unsigned i = 0; i < m->nv; i++) {
		const struct matrix_variant *mv = &m->v[i];
		const struct exp_variant *ev = &m->exp.variants[mv->index];

		if (mv->skip[0])
			continue;
		fprintf(f, "  %-18s ", ev->name);
		if (!mv->est.known) {
			fprintf(f, "unknown (no cost for this program), timeout %.0f s\n",
				mv->req.timeout_s);
			continue;
		}
		duration(per, sizeof(per), mv->est.run_s);
		duration(all, sizeof(all), mv->est.run_s * m->repeat);
		grouped(iters, sizeof(iters), mv->est.iterations);
		fprintf(f,
			"%s %ss x ~%.0f ns + boot = ~%s per boot, timeout %.0f s; %u boot(s) "
			"~%s\n",
			iters, mv->est.unit, mv->est.per_iter_ns, per, mv->req.timeout_s, m->repeat,
			all);
		total += mv->est.run_s * m->repeat;
		boots += m->repeat;
	}
	duration(all, sizeof(all), total);
	fprintf(f, "  %-18s ~%s for %u boot(s)%s\n", "total", all, boots,
		m->nested ? ", plus a few seconds to start the nested runner" : "");
}
