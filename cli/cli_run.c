/*
 * `entrylab run` options (README.md, "Using it"): parsed and validated
 * completely before anything boots, so a typo costs no VM.  One table
 * (opt_table.h) gives the parser and the option lines of --help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bochs.h"
#include "cli.h"
#include "commands.h"
#include "status.h"

static void run_usage(FILE *f);

static int opt_engine(void *obj, const char *arg, struct el_opt_state *st)
{
	return cli_engine_word(st->t->cmd, arg, &((struct el_cli_run *)obj)->bochs);
}

static const struct el_opt run_opts[] = {
	EL_CLI_ROW_CPU("host[,+feat|,-feat]... (entrylab list features)"),
	EL_CLI_ROW_APPEND,
	EL_CLI_ROW_ITERATIONS("iterations of the measured loop, in the bench's unit\n"
			      "(entrylab list benches; pagefault: give SIZE ROUNDS)\n"
			      EL_CLI_HELP_DIVISOR),
	EL_CLI_ROW_EXEC, /* before --events: getopt lists an ambiguous --e's --exec first */
	{.short_name = 'e', .long_name = "events", .arg = "LIST",
	 .help = "counters, perf names (entrylab list events)", .kind = EL_OPT_STRING,
	 EL_CLI_AT(req.events)},
	{.short_name = 'r', .long_name = "repeat", .arg = "N",
	 .help = "N runs, a fresh VM each; one aggregate after the last\n"
		 "(mean, ( +- x% ) perf's relative stderr, min, max)",
	 .kind = EL_OPT_UINT, EL_CLI_AT(req.repeat), .min = 1, .max = 1000,
	 .bad = "--repeat '%s' is not in 1..1000", .fix = "give e.g. -r 5"},
	EL_CLI_ROW_MEMORY,
	EL_CLI_ROW_OUTPUT("append records as JSON lines (default: results/)"),
	EL_CLI_ROW_CSV("perf stat CSV on stdout, one row per quantity:\n"
		       "value,unit,event[,variance%],run-time-ns,pcnt,\n"
		       "metric,metric-unit (variance only with -r N > 1)"),
	EL_CLI_ROW_JSON("the same rows as JSON lines (perf stat -j keys,\n"
			"plus runs, min, max); records go to -o as ever"),
	EL_CLI_ROW_TIMEOUT("one deadline for the whole run, the program's\n"
			   "output to a stalled reader included (default %.0f)", EL_DEFAULT_TIMEOUT),
	{.long_name = "pin", .arg = "CPU", .help = "pin the vCPU thread", .kind = EL_OPT_INT,
	 EL_CLI_AT(req.pin_cpu), .min = 0, .max = 4095, .bad = "--pin '%s' is not a CPU number",
	 .fix = "give e.g. --pin 1"},
	{.long_name = "nested", .synopsis = "    --nested, --no-nested",
	 .help = "force or forbid the nested runner", .kind = EL_OPT_SET, EL_CLI_AT(nested),
	 .val = EL_NESTED_FORCE},
	{.long_name = "no-nested", .kind = EL_OPT_SET, EL_CLI_AT(nested), .val = EL_NESTED_FORBID},
	{.long_name = "no-warm", .help = "nested runner: boot a VM for this command alone\n"
					 "instead of using a warm one (harness/nested/)",
	 .kind = EL_OPT_TRUE, EL_CLI_AT(nested_cold)},
	{.long_name = "strict", .help = "a knob the vCPU cannot honour is an error",
	 .kind = EL_OPT_TRUE, EL_CLI_AT(req.strict)},
	EL_CLI_ROW_GUEST,
	EL_CLI_ROW_REGION,
	EL_CLI_ROW_FILE,
	EL_CLI_ROW_KERNEL,
	{.long_name = "engine", .arg = "kvm|bochs",
	 .help = "where the guest runs: KVM (default), or Bochs 2.7\n"
		 "booted by GRUB, for functional runs (PCID, INVPCID);\n"
		 "no counters or timings there, the record says so",
	 .kind = EL_OPT_CALL, .fn = opt_engine},
	{.long_name = "cpu-model", .arg = "M",
	 .help = "Bochs's CPU model (with --engine bochs; see below)", .kind = EL_OPT_STRING,
	 EL_CLI_AT(cpu_model)},
	{.long_name = "dry-run", .help = "check everything, print what would boot and the engine\n"
					 "with its reason (entrylab engine); boot nothing",
	 .kind = EL_OPT_TRUE, EL_CLI_AT(dry_run)},
	EL_CLI_ROW_VERBOSE,
	EL_CLI_ROW_HELP,
};

/* '+' (in order): the benchmark name ends the options; what follows are its arguments. */
static const struct el_opt_table run_table = {
	EL_OPT_TABLE("run", run_opts), .in_order = true, .col = 24, .gap = 2, .usage = run_usage,
};

static void run_usage(FILE *f)
{
	fprintf(f, "usage: entrylab run [OPTIONS] [BENCH [ARGS...]]\n"
		   "       entrylab run [OPTIONS] --exec FILE [ARGS...]\n");
	el_opt_help(f, &run_table);
	cli_limits_help(f);
	fprintf(f, "With --engine bochs: --cpu, -e, --pin and --nested are refused (the CPU is\n"
		   "--cpu-model's, Bochs has no PMU and no vCPU thread); the program's output is\n"
		   "in the console (-v, the record).  ");
	bochs_models_print(f);
}

const struct el_opt_table *cli_run_table(void)
{
	return &run_table;
}

int cli_run_parse(int argc, char **argv, struct el_cli_run *cli)
{
	struct el_opt_state st;
	bool cpu_given, kvm_only;
	int rc;

	memset(cli, 0, sizeof(*cli));
	request_init(&cli->req);

	if ((rc = el_opt_parse(&run_table, argc, argv, cli, &st)))
		return rc;
	cli_parsed(&st, cli);
	cpu_given = el_opt_seen(&st, 'c', NULL);
	kvm_only = el_opt_seen(&st, 0, "pin") || el_opt_seen(&st, 0, "nested") ||
		   el_opt_seen(&st, 0, "no-nested") || el_opt_seen(&st, 'e', NULL);
	if ((rc = cli_engine_check("run", cli, cpu_given, kvm_only)))
		return rc;
	return cli_finish("run", cli);
}
