/*
 * The runs of `entrylab run [-r N]` gathered into one perf-stat-like
 * aggregate (summary.h): per quantity of the measured region and per -e
 * counter the mean, perf's ( +- x% ) noise, min and max over the runs that
 * measured it, printed once after the last run as the table, -x CSV rows or
 * --json lines.  A quantity no run measured keeps perf's placeholder.
 */
#include <stdio.h>
#include <string.h>

#include "record.h"
#include "summary.h"

/* The region's own rows, in order; counters follow. */
enum { ROW_TIME, ROW_TICKS, ROW_EXITS, ROW_SYSCALLS, ROW_FAULTS, ROW_INTERRUPTS, ROW_REGION };

static const struct {
	const char *event, *unit;
} region_rows[ROW_REGION] = {
	[ROW_TIME] = {"region-time", "msec"}, [ROW_TICKS] = {"tsc-ticks", ""},
	[ROW_EXITS] = {"exits", ""},          [ROW_SYSCALLS] = {"syscalls", ""},
	[ROW_FAULTS] = {"page-faults", ""},   [ROW_INTERRUPTS] = {"interrupts", ""},
};

/* "instructions:k" -> ":k"; NULL when name is not instructions[:s] / cycles[:s]. */
static const char *suffix_of(const char *name, const char *event)
{
	size_t n = strlen(event);

	return !strncmp(name, event, n) && (!name[n] || name[n] == ':') ? name + n : NULL;
}

/* perf's "insn per cycle" wherever instructions and cycles of one privilege were asked. */
static void ipc_rows(struct summary_agg *a, const struct el_cli_run *cli)
{
	const struct el_event_list *ev = &cli->req.ev;

	for (unsigned i = 0; i < ev->n; i++) {
		const char *si = suffix_of(ev->ev[i].name, "instructions");

		for (unsigned k = 0; si && k < ev->n && a->nrows < SUMMARY_MAX_ROWS; k++) {
			const char *sc = suffix_of(ev->ev[k].name, "cycles");
			struct summary_row *r;

			if (!sc || strcmp(si, sc))
				continue;
			r = &a->rows[a->nrows++];
			r->metric_only = true;
			r->unit = "";
			snprintf(r->metric_unit, sizeof(r->metric_unit), "insn per cycle%s%s%s",
				 *si ? " (" : "", *si ? si + 1 : "", *si ? ")" : "");
			a->ipc[a->nipc][0] = i;
			a->ipc[a->nipc++][1] = k;
		}
	}
}

void summary_agg_init(struct summary_agg *a, const struct el_cli_run *cli)
{
	const struct el_bench *b = cli->req.bench ? bench_find(cli->req.bench) : NULL;

	memset(a, 0, sizeof(*a));
	a->unit = b ? b->unit : "iteration";
	a->scope = cli->spec.region_scope;
	for (unsigned i = 0; i < ROW_REGION; i++) {
		snprintf(a->rows[i].event, sizeof(a->rows[i].event), "%s", region_rows[i].event);
		a->rows[i].unit = region_rows[i].unit;
		a->rows[i].status = EL_COUNTER_NOT_COUNTED;
		snprintf(a->rows[i].metric_unit, sizeof(a->rows[i].metric_unit), "%sper %s",
			 i == ROW_TIME ? "ns " : "", a->unit);
	}
	a->nrows = ROW_REGION;
	for (unsigned i = 0; i < cli->req.ev.n && a->nrows < SUMMARY_MAX_ROWS; i++) {
		struct summary_row *r = &a->rows[a->nrows++];

		snprintf(r->event, sizeof(r->event), "%s", cli->req.ev.ev[i].name);
		r->unit = "";
		r->status = EL_COUNTER_NOT_COUNTED;
		snprintf(r->metric_unit, sizeof(r->metric_unit), "per %s", a->unit);
	}
	ipc_rows(a, cli);
}

/* One region quantity of a run: its value, per iteration, over the region's time. */
static void add_value(struct summary_row *r, double v, uint64_t iters, double ns)
{
	summary_acc_add(&r->val, v);
	summary_acc_add(&r->runtime, ns);
	if (iters)
		summary_acc_add(&r->metric, v / (double)iters);
}

static void add_counters(struct summary_agg *a, const struct el_cli_run *cli,
			 const struct el_run_result *res, double ns)
{
	struct el_counter_result cr, ci, cc;
	unsigned first_ipc = a->nrows - a->nipc;

	for (unsigned p = 0; p < a->nipc; p++) {
		record_counter(&cli->req, &cli->spec, res, a->ipc[p][0], &ci);
		record_counter(&cli->req, &cli->spec, res, a->ipc[p][1], &cc);
		if (ci.have_value && cc.have_value && cc.value)
			summary_acc_add(&a->rows[first_ipc + p].metric,
					(double)ci.value / (double)cc.value);
	}

	for (unsigned i = 0; i < cli->req.ev.n && ROW_REGION + i < first_ipc; i++) {
		struct summary_row *r = &a->rows[ROW_REGION + i];

		record_counter(&cli->req, &cli->spec, res, i, &cr);
		/* "not supported" outranks "not counted": it says why for every run. */
		if (!cr.have_value) {
			if (r->status != EL_COUNTER_NOT_SUPPORTED)
				r->status = cr.status;
			continue;
		}
		summary_acc_add(&r->val, (double)cr.value);
		summary_acc_add(&r->runtime, ns);
		if (cr.have_per_iter)
			summary_acc_add(&r->metric, cr.per_iter);
	}
}

void summary_agg_add(struct summary_agg *a, const struct el_cli_run *cli,
		     const struct el_run_result *res)
{
	const struct el_region *g = &res->run.region;
	uint64_t iters = record_iterations(&cli->req, res), ticks, khz;
	double ns = 0;

	a->runs++;
	a->status_count[res->status]++;
	if (!a->have_first) {
		a->have_first = true;
		a->first_status = res->status;
		a->first_exit = res->exit_status;
		snprintf(a->first_detail, sizeof(a->first_detail), "%s", res->detail);
	}
	if (res->have_boot && !a->have_boot) {
		a->have_boot = true;
		a->boot = res->boot;
	}
	if (res->have_linux && !a->have_linux) {
		a->have_linux = true;
		a->linux_info = res->linux_info;
	}
	if (res->status == EL_RUN_OK && res->exit_status)
		a->nonzero_exits++;
	if (res->have_run) {
		const struct el_timer_stats *t = &res->run.timer;

		a->timer.interrupts += t->interrupts;
		a->timer.fallbacks += t->fallbacks;
		a->timer.halt_skips += t->halt_skips;
		if (t->late_max_ns > a->timer.late_max_ns)
			a->timer.late_max_ns = t->late_max_ns;
	}
	summary_acc_add(&a->boot_ms, res->boot_ms);
	summary_acc_add(&a->wall_ms, res->wall_ms);
	a->iterations = iters ? iters : a->iterations;
	if (!res->have_run || !g->valid) {
		const char *why = record_region_missing(&cli->spec, res);

		if (why && !a->missing[0])
			snprintf(a->missing, sizeof(a->missing), "%s", why);
		add_counters(a, cli, res, 0);
		return;
	}
	ticks = g->tsc_end - g->tsc_begin;
	khz = g->tsc_khz ? g->tsc_khz : res->tsc_khz;
	if (khz) {
		ns = (double)ticks * 1e6 / (double)khz;
		add_value(&a->rows[ROW_TIME], ns / 1e6, 0, ns);
		if (iters)
			summary_acc_add(&a->rows[ROW_TIME].metric, ns / (double)iters);
		summary_acc_add(&a->elapsed_s, ns / 1e9);
	}
	add_value(&a->rows[ROW_TICKS], (double)ticks, iters, ns);
	/* What nobody counted stays perf's placeholder, as the record's null (abi.h). */
	if (cli->req.guest != EL_GUEST_LINUX) /* the VMM sees no markers of a Linux guest */
		add_value(&a->rows[ROW_EXITS], (double)res->region_exits, iters, ns);
	if (!(g->unknown & EL_REGION_UNKNOWN_SYSCALLS))
		add_value(&a->rows[ROW_SYSCALLS], (double)g->syscalls, iters, ns);
	if (!(g->unknown & EL_REGION_UNKNOWN_PAGE_FAULTS))
		add_value(&a->rows[ROW_FAULTS], (double)g->page_faults, iters, ns);
	if (!(g->unknown & EL_REGION_UNKNOWN_INTERRUPTS))
		add_value(&a->rows[ROW_INTERRUPTS], (double)g->interrupts, iters, ns);
	a->measured++;
	add_counters(a, cli, res, ns);
}

void summary_agg_csv(FILE *f, const struct summary_agg *a, const char *sep)
{
	for (unsigned i = 0; i < a->nrows; i++)
		summary_row_csv(f, &a->rows[i], sep, a->runs > 1);
}

void summary_agg_json(FILE *f, const struct summary_agg *a)
{
	for (unsigned i = 0; i < a->nrows; i++)
		summary_row_json(f, &a->rows[i], a->runs > 1);
}

/* The perf stat block: header, a row per quantity, time elapsed. */
void summary_agg_table(FILE *f, const struct summary_agg *a, const struct el_run_request *req)
{
	const struct summary_acc *t = &a->elapsed_s;

	fprintf(f, "\n Performance counter stats for '%s", req->bench ? req->bench : req->exec);
	for (int i = 0; i < req->nargs; i++)
		fprintf(f, " %s", req->args[i]);
	fprintf(f, "'");
	if (a->scope == EL_REGION_SCOPE_WHOLE)
		fprintf(f, " (the whole program)");
	if (a->runs > 1)
		fprintf(f, " (%u runs)", a->runs);
	fprintf(f, ":\n\n");
	if (a->iterations) {
		char n[32];

		summary_grouped(n, sizeof(n), (double)a->iterations);
		fprintf(f, "  %18s      iterations           # one %s each\n", n, a->unit);
	} else if (a->scope == EL_REGION_SCOPE_WHOLE) {
		fprintf(f, "  %18s      iterations           # totals only: -n N gives "
			   "per-iteration figures\n", "-");
	}
	for (unsigned i = 0; i < a->nrows; i++)
		summary_row_table(f, &a->rows[i], a->runs > 1, a->measured);
	fprintf(f, "\n");
	if (!t->n) {
		fprintf(f, "  <not counted> seconds time elapsed (not measured: %s)\n\n",
			a->missing[0] ? a->missing : "no run measured a region");
		return;
	}
	fprintf(f, " %17.9f", t->mean);
	if (a->runs > 1)
		fprintf(f, " +- %.9f", summary_acc_stderr(t));
	fprintf(f, " seconds time elapsed %s",
		a->scope == EL_REGION_SCOPE_WHOLE ? "in the whole program" : "in the region");
	if (a->runs > 1)
		fprintf(f, "  ( +- %5.2f%% )", summary_acc_rse(t));
	fprintf(f, "\n\n");
}
