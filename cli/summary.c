/*
 * The header of `entrylab run`'s output (the runs' status, the request and
 * the guest's configuration) over the aggregate (summary_aggregate.c), and
 * the per-run progress lines of -r N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "cmdline.h"
#include "record.h"
#include "record_nested.h"
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

/* Linux: only what its /init reported (the rest is EL_CONFIG_UNSET). */
static void print_linux_config(FILE *f, const struct el_report *b)
{
	fprintf(f, "  config  ");
	for (unsigned i = 0; i < EL_CFG_COUNT; i++)
		if (b->config[i] != EL_CONFIG_UNSET)
			fprintf(f, " %s=%s", el_config[i].key, config_name(i, b->config[i]));
	fprintf(f, "\n");
}

/* What the Linux guest's /init said of Linux (guest.linux). */
static void print_linux(FILE *f, const struct el_linux_info *li)
{
	fprintf(f, "  linux    %s, clocksource %s, vsyscall %s, meltdown: %s\n",
		li->release[0] ? li->release : "?", li->clocksource[0] ? li->clocksource : "?",
		li->vsyscall[0] ? li->vsyscall : "?", li->meltdown[0] ? li->meltdown : "?");
	fprintf(f, "  cmdline  %s\n", li->cmdline);
}

static void print_cpuid(FILE *f, uint64_t bits)
{
	unsigned i;

	fprintf(f, "  cpuid   ");
	for (i = 0; i < EL_FEAT_COUNT; i++)
		fprintf(f, " %c%s", (bits >> i) & 1 ? '+' : '-', el_features[i].name);
	fprintf(f, "\n");
}

/* "ok, exit status 0" for one run; "3 runs: 2 ok, 1 timeout" for several. */
static void print_status(FILE *f, const struct summary_agg *a)
{
	static const enum el_run_status order[] = {EL_RUN_OK, EL_RUN_GUEST_CRASH,
		EL_RUN_GUEST_BAD_IO, EL_RUN_TIMEOUT, EL_RUN_VMM_ERROR, EL_RUN_UNSUPPORTED};
	const char *sep = ": ";

	if (a->runs == 1) {
		fprintf(f, ": %s", record_status(&(struct el_run_result){.status = a->first_status}));
		if (a->first_status == EL_RUN_OK)
			fprintf(f, ", exit status %d", a->first_exit);
		return;
	}
	fprintf(f, ": %u runs", a->runs);
	for (unsigned i = 0; i < EL_ARRAY_SIZE(order); i++) {
		if (!a->status_count[order[i]])
			continue;
		fprintf(f, "%s%u %s", sep, a->status_count[order[i]],
			record_status(&(struct el_run_result){.status = order[i]}));
		sep = ", ";
	}
	if (a->nonzero_exits)
		fprintf(f, " (%u with a non-zero exit status)", a->nonzero_exits);
}

/* Under the nested runner: how the command got to its VM, and what that cost (host.nested). */
static void print_nested(FILE *f)
{
	const char *runner = getenv(EL_NESTED_ENV_RUNNER), *setup = getenv(EL_NESTED_ENV_SETUP);
	const char *wait = getenv(EL_NESTED_ENV_WAIT), *started = getenv(EL_NESTED_ENV_STARTED);

	if (!runner || !setup)
		return;
	fprintf(f, "  nested   %s runner, set-up %s s%s", runner, setup,
		started && !strcmp(started, "1") ? " (booted it)" : "");
	if (wait && strtod(wait, NULL) >= 0.05) /* a real wait, not the lock's own cost */
		fprintf(f, ", waited %s s for a free one", wait);
	fputc('\n', f);
}

void summary_print(FILE *f, const struct el_cli_run *cli, const struct el_host_info *host,
		   const struct summary_agg *a, const char *output)
{
	const char *what = cli->req.bench ? cli->req.bench : cli->req.exec ? cli->req.exec : "boot";

	if (cli->csv_sep) {
		summary_agg_csv(f, a, cli->csv_sep);
		return;
	}
	if (cli->json) {
		summary_agg_json(f, a);
		return;
	}
	fprintf(f, "entrylab run %s", what);
	print_status(f, a);
	if (cli->bochs)
		/* Bochs: no clock worth reading (its TSC runs at the emulator's pace). */
		fprintf(f, "  (bochs %s, timings not meaningful)\n", cli->cpu_model);
	else if (cli->req.guest == EL_GUEST_LINUX)
		fprintf(f, "  (kvm %s, guest linux %s, boot to /init %.1f ms, wall %.1f ms%s)\n",
			host->kvm, a->have_linux && a->linux_info.release[0] ? a->linux_info.release
			: "?", a->boot_ms.mean, a->wall_ms.mean, a->runs > 1 ? ", means" : "");
	else
		fprintf(f, "  (kvm %s, boot %.1f ms, wall %.1f ms%s)\n", host->kvm, a->boot_ms.mean,
			a->wall_ms.mean, a->runs > 1 ? ", means" : "");
	print_nested(f);
	if (a->runs == 1 && a->first_detail[0])
		fprintf(f, "  detail   %s\n", a->first_detail);
	fprintf(f, "  cpu      %s\n", cli->bochs ? cli->cpu_model : cli->req.cpu_spec);
	if (cli->req.append[0])
		fprintf(f, "  append   %s\n", cli->req.append);
	if (cli->req.guest == EL_GUEST_LINUX) {
		if (a->have_linux)
			print_linux(f, &a->linux_info);
		if (a->have_boot) {
			print_linux_config(f, &a->boot);
			print_cpuid(f, a->boot.cpuid);
		}
	} else if (a->have_boot) {
		fprintf(f, "  cr0 0x%llx  cr4 0x%llx  efer 0x%llx%s\n",
			(unsigned long long)a->boot.cr0, (unsigned long long)a->boot.cr4,
			(unsigned long long)a->boot.efer, a->runs > 1 ? "  (first run)" : "");
		print_config(f, &a->boot, cli->req.append);
		print_cpuid(f, a->boot.cpuid);
	}
	if (a->timer.interrupts || a->timer.halt_skips)
		fprintf(f, "  timer    %llu interrupts%s, the latest-coming %.3f ms late, %llu a period "
			   "or more late (fallbacks), %llu halts skipped (guest.timer)\n",
			(unsigned long long)a->timer.interrupts, a->runs > 1 ? " in all runs" : "",
			(double)a->timer.late_max_ns / 1e6, (unsigned long long)a->timer.fallbacks,
			(unsigned long long)a->timer.halt_skips);
	if (cli->req.bench || cli->req.exec)
		summary_agg_table(f, a, &cli->req);
	if (output)
		fprintf(f, "  record%s %s\n", a->runs > 1 ? "s " : "  ", output);
}

void summary_progress(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res,
		      unsigned i)
{
	const struct el_region *g = &res->run.region;
	uint64_t khz = g->tsc_khz ? g->tsc_khz : res->tsc_khz;

	fprintf(f, "entrylab run: %u/%u %s", i + 1, cli->req.repeat, record_status(res));
	if (res->status == EL_RUN_OK)
		fprintf(f, ", exit status %d", res->exit_status);
	if (res->have_run && g->valid && khz)
		fprintf(f, ", region %.3f ms", (double)(g->tsc_end - g->tsc_begin) / (double)khz);
	fprintf(f, "\n");
}
