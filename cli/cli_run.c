/*
 * `entrylab run` options (README.md, "Using it"): parsed and validated
 * completely before anything boots, so a typo costs no VM.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bochs.h"
#include "cli.h"
#include "parse_num.h"
#include "status.h"

enum {
	OPT_PIN = EL_OPT_PRIVATE,
	OPT_NESTED,
	OPT_NO_NESTED,
	OPT_NO_WARM,
	OPT_STRICT,
	OPT_ENGINE,
	OPT_CPU_MODEL,
	OPT_DRY_RUN,
};

static const struct option run_options[] = {
	EL_CLI_SHARED_OPTIONS,
	{"events", required_argument, 0, 'e'},
	{"repeat", required_argument, 0, 'r'},
	{"pin", required_argument, 0, OPT_PIN},
	{"nested", no_argument, 0, OPT_NESTED},
	{"no-nested", no_argument, 0, OPT_NO_NESTED},
	{"no-warm", no_argument, 0, OPT_NO_WARM},
	{"strict", no_argument, 0, OPT_STRICT},
	{"engine", required_argument, 0, OPT_ENGINE},
	{"cpu-model", required_argument, 0, OPT_CPU_MODEL},
	{"dry-run", no_argument, 0, OPT_DRY_RUN},
	{0, 0, 0, 0},
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: entrylab run [OPTIONS] [BENCH [ARGS...]]\n"
		"       entrylab run [OPTIONS] --exec FILE [ARGS...]\n"
		"  -c, --cpu SPEC        host[,+feat|,-feat]... (entrylab list features)\n"
		"  -a, --append ARGS     guest kernel command line (entrylab list knobs)\n"
		"  -n, --iterations N    iterations of the measured loop, in the bench's unit\n"
		"                        (entrylab list benches; pagefault: give SIZE ROUNDS)\n"
		EL_CLI_HELP_DIVISOR
		"  -e, --events LIST     counters, perf names (entrylab list events)\n"
		"  -r, --repeat N        N runs, a fresh VM each; one aggregate after the last\n"
		"                        (mean, ( +- x%% ) perf's relative stderr, min, max)\n"
		"  -m, --memory SIZE     guest memory, e.g. 256M (default 256M)\n"
		"  -o, --output FILE     append records as JSON lines (default: results/)\n"
		"  -x SEP                perf stat CSV on stdout, one row per quantity:\n"
		"                        value,unit,event[,variance%%],run-time-ns,pcnt,\n"
		"                        metric,metric-unit (variance only with -r N > 1)\n"
		"      --json            the same rows as JSON lines (perf stat -j keys,\n"
		"                        plus runs, min, max); records go to -o as ever\n"
		"      --timeout SEC     one deadline for the whole run, the program's\n"
		"                        output to a stalled reader included (default %.0f)\n"
		"      --pin CPU         pin the vCPU thread\n"
		"      --nested, --no-nested  force or forbid the nested runner\n"
		"      --no-warm         nested runner: boot a VM for this command alone\n"
		"                        instead of using a warm one (harness/nested/)\n"
		"      --strict          a knob the vCPU cannot honour is an error\n"
		"      --guest KIND      entrylab (our kernel, default) or linux: a Linux kernel\n"
		"                        with our /init runs the same program (docs/linux-guest.md)\n"
		EL_CLI_HELP_REGION
		EL_CLI_HELP_FILE
		"      --kernel FILE     the kernel to boot: ours by default; with --guest linux\n"
		"                        an ELF vmlinux or bzImage (default: Debian's, as fetched\n"
		"                        for the nested runner)\n"
		"      --engine kvm|bochs  where the guest runs: KVM (default), or Bochs 2.7\n"
		"                        booted by GRUB, for functional runs (PCID, INVPCID);\n"
		"                        no counters or timings there, the record says so\n"
		"      --cpu-model M     Bochs's CPU model (with --engine bochs; see below)\n"
		"      --dry-run         check everything, print what would boot and the engine\n"
		"                        with its reason (entrylab engine); boot nothing\n"
		"  -v                    guest console on stderr (control bytes as \\xHH)\n",
		EL_DEFAULT_TIMEOUT);
	cli_limits_help(f);
	fprintf(f, "With --engine bochs: --cpu, -e, --pin and --nested are refused (the CPU is\n"
		   "--cpu-model's, Bochs has no PMU and no vCPU thread); the program's output is\n"
		   "in the console (-v, the record).  ");
	bochs_models_print(f);
}

static int parse_one(int opt, const char *arg, struct el_cli_run *cli)
{
	uint64_t v;
	int rc = cli_parse_shared("run", opt, arg, cli);

	if (rc >= 0)
		return rc;
	switch (opt) {
	case 'e': cli->req.events = arg; break;
	case OPT_NESTED: cli->nested = EL_NESTED_FORCE; break;
	case OPT_NO_NESTED: cli->nested = EL_NESTED_FORBID; break;
	case OPT_NO_WARM: cli->nested_cold = true; break;
	case OPT_STRICT: cli->req.strict = true; break;
	case OPT_ENGINE:
		if (strcmp(arg, "kvm") && strcmp(arg, "bochs"))
			return cli_bad("run", "give --engine kvm or --engine bochs",
				       "--engine '%s' is not an engine", arg);
		cli->bochs = !strcmp(arg, "bochs");
		break;
	case OPT_CPU_MODEL: cli->cpu_model = arg; break;
	case OPT_DRY_RUN: cli->dry_run = true; break;
	case 'r':
		if (el_parse_u64(arg, 1, 1000, &v))
			return cli_bad("run", "give e.g. -r 5", "--repeat '%s' is not in 1..1000", arg);
		cli->req.repeat = (unsigned)v;
		break;
	case OPT_PIN:
		if (el_parse_u64(arg, 0, 4095, &v))
			return cli_bad("run", "give e.g. --pin 1", "--pin '%s' is not a CPU number", arg);
		cli->req.pin_cpu = (int)v;
		break;
	case 'h':
		run_usage(stdout);
		exit(0);
	default:
		run_usage(stderr);
		return EL_EXIT_USAGE;
	}
	return 0;
}

int cli_run_parse(int argc, char **argv, struct el_cli_run *cli)
{
	int opt, rc;
	bool cpu_given = false, pin_given = false;

	memset(cli, 0, sizeof(*cli));
	request_init(&cli->req);

	optind = 1;
	opterr = 1;
	/* '+': stop at the benchmark name; what follows are its arguments. */
	while ((opt = getopt_long(argc, argv, "+c:a:n:e:r:m:o:x:vh", run_options, NULL)) != -1) {
		if ((rc = parse_one(opt, optarg, cli)))
			return rc;
		cpu_given |= opt == 'c';
		pin_given |= opt == OPT_PIN || opt == OPT_NESTED || opt == OPT_NO_NESTED ||
			     opt == 'e';
		/* What follows --exec FILE belongs to the program, options included. */
		if (opt == EL_OPT_EXEC)
			break;
	}

	if (optind < argc && !cli->req.exec)
		cli->req.bench = argv[optind++];
	cli->req.args = argv + optind;
	cli->req.nargs = argc - optind;

	if ((rc = cli_engine_check("run", cli, cpu_given, pin_given)))
		return rc;
	return cli_finish("run", cli);
}
