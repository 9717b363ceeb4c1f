/*
 * `entrylab trace` options: run's options that make sense under QEMU TCG
 * (the rest are refused with the reason), plus --listing, --top and --qemu.
 * Fills the same struct el_cli_run as `run`, so the request, the programs and
 * the record are prepared exactly as run prepares them.  One table
 * (opt_table.h) gives the parser and the option lines of --help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "cli.h"
#include "commands.h"

#define TRACE_AT(field) .off = offsetof(struct el_cli_trace, field)
/* run's options that mean nothing here: refused with the reason */
#define RUN_ONLY(name, has_arg)                                                               \
	{.long_name = (name), .arg = (has_arg) ? "X" : NULL, .kind = EL_OPT_REFUSE,          \
	 .bad = "--%s applies to `entrylab run` only (a trace runs under QEMU TCG here, never " \
		"on KVM or the nested runner)",                                               \
	 .fix = "drop it"}

/* The shared rows work on the el_cli_run this begins with. */
_Static_assert(offsetof(struct el_cli_trace, run) == 0, "trace's table needs run first");

static void trace_usage(FILE *f);

static const struct el_opt trace_opts[] = {
	EL_CLI_ROW_CPU("host[,+feat|,-feat]...: QEMU's \"max\" with the toggles"),
	EL_CLI_ROW_APPEND,
	EL_CLI_ROW_ITERATIONS("iterations of the measured loop\n" EL_CLI_HELP_DIVISOR),
	EL_CLI_ROW_MEMORY,
	EL_CLI_ROW_OUTPUT("append the record as a JSON line (default: results/)"),
	EL_CLI_ROW_CSV("CSV with separator SEP on stdout"),
	EL_CLI_ROW_JSON("the record as JSON on stdout"),
	{.long_name = "listing", .help = "also print each instruction of the region, with counts\n"
					 "and a mark for CR3 writes, SWAPGS, SYSRET, IRET, WRMSR, ...",
	 .kind = EL_OPT_TRUE, TRACE_AT(opts.listing)},
	{.long_name = "top", .arg = "N", .help = "symbols in the table (default 15)",
	 .kind = EL_OPT_UINT, TRACE_AT(opts.top), .min = 1, .max = 100000,
	 .bad = "--top '%s' is not a count", .fix = "give e.g. --top 30"},
	EL_CLI_ROW_TIMEOUT("stop a guest that runs longer (default %.0f)", EL_TRACE_TIMEOUT),
	EL_CLI_ROW_REGION,
	EL_CLI_ROW_FILE,
	EL_CLI_ROW_GUEST,
	EL_CLI_ROW_KERNEL,
	{.long_name = "qemu", .arg = "FILE",
	 .help = "the qemu-system-x86_64 to use (default: $ENTRYLAB_QEMU,\n"
		 "else qemu-system-x86_64 from PATH)",
	 .kind = EL_OPT_STRING, TRACE_AT(opts.qemu)},
	EL_CLI_ROW_VERBOSE,
	EL_CLI_ROW_EXEC,
	EL_CLI_ROW_HELP,
	{.short_name = 'e', .long_name = "events", .arg = "LIST", .kind = EL_OPT_REFUSE,
	 .bad = "-e: a trace counts instructions exactly and has no PMU events",
	 .fix = "use `entrylab run -e` for PMU counters"},
	{.short_name = 'r', .long_name = "repeat", .arg = "N", .kind = EL_OPT_REFUSE,
	 .bad = "-r: a trace is deterministic, repeats give the same counts", .fix = "run it once"},
	RUN_ONLY("pin", true),
	RUN_ONLY("nested", false),
	RUN_ONLY("no-nested", false),
	RUN_ONLY("strict", false),
};

/* '+' (in order): the benchmark name ends the options; what follows are its arguments. */
static const struct el_opt_table trace_table = {
	EL_OPT_TABLE("trace", trace_opts), .in_order = true, .col = 24, .gap = 2,
	.usage = trace_usage,
};

static void trace_usage(FILE *f)
{
	fprintf(f, "usage: entrylab trace [OPTIONS] BENCH [ARGS...]\n"
		   "       entrylab trace [OPTIONS] --exec FILE [ARGS...]\n"
		   "Boots the guest under QEMU TCG (-cpu max, no KVM) and counts every instruction\n"
		   "executed between the region markers, by privilege and by symbol: exact and\n"
		   "deterministic on any machine.  The guest gets el.tsc_khz=1000000 (no PIT\n"
		   "calibration) and boots with qboot where installed.\n");
	el_opt_help(f, &trace_table);
	cli_limits_help(f);
}

const struct el_opt_table *cli_trace_table(void)
{
	return &trace_table;
}

int cli_trace_parse(int argc, char **argv, struct el_cli_trace *t)
{
	struct el_cli_run *cli = &t->run;
	struct el_opt_state st;
	int rc;

	memset(t, 0, sizeof(*t));
	request_init(&cli->req);
	cli->req.mem_bytes = EL_TRACE_MEMORY;
	cli->req.timeout_s = EL_TRACE_TIMEOUT;
	cli->nested = EL_NESTED_FORBID;

	if ((rc = el_opt_parse(&trace_table, argc, argv, t, &st)))
		return rc;
	cli_parsed(&st, cli);
	if (!cli->req.bench && !cli->req.exec)
		return cli_bad("trace", "name one (`entrylab list benches`) or give --exec FILE",
			   "%s", "no benchmark to trace");
	return cli_finish("trace", cli);
}
