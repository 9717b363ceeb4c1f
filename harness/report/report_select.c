/*
 * A report's columns as a command asks for them (report.h): an experiment's
 * metrics with the events its runs count, the columns a trace can give, a
 * --metrics list, and the baseline a --baseline names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrylab/abi.h"
#include "report.h"

/* events ("a,b,c") split in place into at most max words; how many. */
static size_t split_events(char *buf, const char **words, size_t max)
{
	char *save, *tok;
	size_t n = 0;

	for (tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
		words[n++] = tok;
	return n;
}

void report_experiment_columns(struct report *r, const char *const *metrics, unsigned n,
			       const char *events)
{
	const char *words[EL_MAX_COUNTERS];
	char buf[512], err[256];
	size_t nw;

	snprintf(buf, sizeof(buf), "%s", events ? events : "");
	nw = split_events(buf, words, EL_MAX_COUNTERS);
	for (unsigned i = 0; i < n; i++)
		report_metric(r, metrics[i], words, nw, err, sizeof(err));
	if (n)
		return;
	report_default_metrics(r);
	snprintf(buf, sizeof(buf), "%s", events ? events : "");
	/* Requested events get a column even when no run counted them. */
	for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool have = false;

		for (unsigned k = 0; k < r->nm; k++)
			have = have || !strcmp(r->m[k].num.counter, tok);
		if (!have)
			report_metric(r, tok, (const char *const[]){tok}, 1, err, sizeof(err));
	}
}

void report_trace_columns(struct report *r, const char *const *metrics, unsigned n,
			  char *dropped, size_t len)
{
	char err[256];
	size_t o = 0;
	struct metric mt;

	dropped[0] = '\0';
	report_metric(r, "trace_kernel", NULL, 0, err, sizeof(err));
	report_metric(r, "trace_user", NULL, 0, err, sizeof(err));
	for (unsigned i = 0; i < n; i++) {
		bool have = false;

		if (metric_parse(metrics[i], NULL, 0, &mt, err, sizeof(err)))
			continue;
		for (unsigned k = 0; k < r->nm; k++)
			have = have || !strcmp(r->m[k].label, mt.label);
		if (metric_traced(&mt)) {
			if (!have)
				report_metric(r, metrics[i], NULL, 0, err, sizeof(err));
		} else if (o < len) {
			o += (size_t)snprintf(dropped + o, len - o, "%s%s", o ? ", " : "",
					      metrics[i]);
		}
	}
}

int report_metric_list(struct report *r, const char *list, char *err, size_t errlen)
{
	char *copy, *tok, *save;
	int rc = 0;

	if (!list) {
		report_default_metrics(r);
		return 0;
	}
	copy = strdup(list);
	for (tok = copy ? strtok_r(copy, ", ", &save) : NULL; tok && !rc;
	     tok = strtok_r(NULL, ", ", &save))
		rc = report_metric(r, tok, NULL, 0, err, errlen) ? -1 : 0;
	free(copy);
	return rc;
}

int report_baseline_find(const struct report *r, const char *want)
{
	int g = report_find(r, want);
	char *end;
	long k = strtol(want, &end, 10);

	if (g < 0 && *want && !*end && k >= 1 && k <= (long)r->n)
		g = (int)k - 1;
	return g;
}
