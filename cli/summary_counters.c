/*
 * Counters in the summary and the CSV, the way perf stat shows them: the
 * count (thousands grouped in the table), or <not supported> / <not counted>
 * in its place, never a number the guest did not count.
 */
#include <stdio.h>
#include <string.h>

#include "record.h"
#include "summary.h"

static const char *const placeholder[] = {
	[EL_COUNTER_COUNTED] = "",
	[EL_COUNTER_NOT_SUPPORTED] = "<not supported>",
	[EL_COUNTER_NOT_COUNTED] = "<not counted>",
};

/* 1234567 -> "1,234,567" */
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

void summary_counters_print(FILE *f, const struct el_cli_run *cli,
			    const struct el_run_result *res)
{
	struct el_counter_result cr;
	char num[32];

	if (!cli->req.ev.n)
		return;
	fprintf(f, "  counters (per iteration: the markers' cost taken off)\n");
	for (unsigned i = 0; i < cli->req.ev.n; i++) {
		int pad;

		record_counter(&cli->req, &cli->spec, res, i, &cr);
		if (cr.have_value)
			grouped(num, sizeof(num), cr.value);
		else
			snprintf(num, sizeof(num), "%s", placeholder[cr.status]);
		fprintf(f, "  %18s      %s", num, cr.name);
		pad = 20 - (int)strlen(cr.name);
		if (cr.have_per_iter)
			fprintf(f, "%*s # %12.2f per iteration", pad > 0 ? pad : 0, "",
				cr.per_iter);
		if (cr.have_markers)
			fprintf(f, "   (markers %llu)", (unsigned long long)cr.markers);
		fprintf(f, "\n");
	}
}

/* value SEP unit SEP event SEP per-iteration SEP "per-iter" */
void summary_counters_csv(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res)
{
	const char *s = cli->csv_sep;
	struct el_counter_result cr;

	for (unsigned i = 0; i < cli->req.ev.n; i++) {
		record_counter(&cli->req, &cli->spec, res, i, &cr);
		if (cr.have_value)
			fprintf(f, "%llu", (unsigned long long)cr.value);
		else
			fprintf(f, "%s", placeholder[cr.status]);
		fprintf(f, "%s%s%s%s", s, s, cr.name, s);
		if (cr.have_per_iter)
			fprintf(f, "%.2f", cr.per_iter);
		fprintf(f, "%s%s\n", s, cr.have_per_iter ? "per-iter" : "");
	}
}
