/*
 * The human-readable summary of a run on stdout (the default output), and
 * the problem report on stderr when a run did not end well.
 */
#include <stdio.h>
#include <string.h>

#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "cmdline.h"
#include "record.h"
#include "summary.h"

static const char *config_name(unsigned item, uint8_t v)
{
	if (v == EL_CONFIG_UNAVAILABLE)
		return "unavailable";
	if (v == EL_CONFIG_UNSET)
		return "?";
	return el_config[item].values[v];
}

static void print_config(FILE *f, const struct el_report *b, const char *append)
{
	struct el_cmdline want;
	unsigned i;

	if (el_cmdline_parse(append, &want, NULL, NULL))
		memset(&want, 0, sizeof(want));

	fprintf(f, "  config  ");
	for (i = 0; i < EL_CFG_COUNT; i++) {
		fprintf(f, " %s=%s", el_config[i].key, config_name(i, b->config[i]));
		if (want.given[i] && b->requested[i] != b->config[i])
			fprintf(f, "(asked %s)", config_name(i, b->requested[i]));
	}
	fprintf(f, "\n");
}

static void print_cpuid(FILE *f, uint64_t bits)
{
	unsigned i;

	fprintf(f, "  cpuid   ");
	for (i = 0; i < EL_FEAT_COUNT; i++)
		fprintf(f, " %c%s", (bits >> i) & 1 ? '+' : '-', el_features[i].name);
	fprintf(f, "\n");
}

void summary_print(FILE *f, const struct el_cli_run *cli, const struct el_host_info *host,
		   const struct el_run_result *res, const char *output)
{
	const char *what = cli->req.bench ? cli->req.bench : cli->req.exec ? cli->req.exec : "boot";

	fprintf(f, "entrylab run %s: %s", what, record_status(res));
	if (res->status == EL_RUN_OK)
		fprintf(f, ", exit status %d", res->exit_status);
	fprintf(f, "  (kvm %s, boot %.1f ms, wall %.1f ms)\n", host->kvm, res->boot_ms,
		res->wall_ms);
	if (res->detail[0])
		fprintf(f, "  detail   %s\n", res->detail);
	fprintf(f, "  cpu      %s\n", cli->req.cpu_spec);
	if (cli->req.append[0])
		fprintf(f, "  append   %s\n", cli->req.append);
	if (res->have_boot) {
		fprintf(f, "  cr0 0x%llx  cr4 0x%llx  efer 0x%llx\n",
			(unsigned long long)res->boot.cr0, (unsigned long long)res->boot.cr4,
			(unsigned long long)res->boot.efer);
		print_config(f, &res->boot, cli->req.append);
		print_cpuid(f, res->boot.cpuid);
	}
	if (res->have_run && res->run.region.valid) {
		const struct el_region *r = &res->run.region;

		fprintf(f, "  region   %llu TSC ticks, %llu exits, %llu syscalls, %llu page faults, "
			   "%llu interrupts\n",
			(unsigned long long)(r->tsc_end - r->tsc_begin),
			(unsigned long long)res->region_exits, (unsigned long long)r->syscalls,
			(unsigned long long)r->page_faults, (unsigned long long)r->interrupts);
	}
	summary_counters_print(f, cli, res);
	if (output)
		fprintf(f, "  record   %s\n", output);
}

/*
 * perf-stat-like CSV: value, unit, name per line; the counters follow the
 * region's lines, <not supported> / <not counted> in place of a value.
 */
void summary_csv(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res)
{
	const char *s = cli->csv_sep;
	const struct el_region *r = &res->run.region;

	fprintf(f, "%s%sstatus%s%s\n", record_status(res), s, s,
		res->status == EL_RUN_OK ? "ok" : res->detail);
	if (res->have_run && r->valid) {
		fprintf(f, "%llu%sticks%stsc%s\n", (unsigned long long)(r->tsc_end - r->tsc_begin),
			s, s, s);
		fprintf(f, "%llu%s%sexits%s\n", (unsigned long long)res->region_exits, s, s, s);
		fprintf(f, "%llu%s%ssyscalls%s\n", (unsigned long long)r->syscalls, s, s, s);
		fprintf(f, "%llu%s%spage-faults%s\n", (unsigned long long)r->page_faults, s, s, s);
		fprintf(f, "%llu%s%sinterrupts%s\n", (unsigned long long)r->interrupts, s, s, s);
	}
	summary_counters_csv(f, cli, res);
}
