/*
 * `entrylab run` options (DESIGN.md, "Command line"): parsed and validated
 * completely before anything boots, so a typo costs no VM.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmdline.h"
#include "status.h"

#define EL_DEFAULT_MEMORY (256ull << 20)
#define EL_MIN_MEMORY (16ull << 20)
#define EL_MAX_MEMORY (64ull << 30)
#define EL_DEFAULT_TIMEOUT 120.0

enum {
	OPT_JSON = 256,
	OPT_TIMEOUT,
	OPT_PIN,
	OPT_NESTED,
	OPT_NO_NESTED,
	OPT_STRICT,
	OPT_KERNEL,
	OPT_EXEC,
};

static const struct option run_options[] = {
	{"cpu", required_argument, 0, 'c'},
	{"append", required_argument, 0, 'a'},
	{"iterations", required_argument, 0, 'n'},
	{"events", required_argument, 0, 'e'},
	{"repeat", required_argument, 0, 'r'},
	{"memory", required_argument, 0, 'm'},
	{"output", required_argument, 0, 'o'},
	{"field-separator", required_argument, 0, 'x'},
	{"json", no_argument, 0, OPT_JSON},
	{"timeout", required_argument, 0, OPT_TIMEOUT},
	{"pin", required_argument, 0, OPT_PIN},
	{"nested", no_argument, 0, OPT_NESTED},
	{"no-nested", no_argument, 0, OPT_NO_NESTED},
	{"verbose", no_argument, 0, 'v'},
	{"strict", no_argument, 0, OPT_STRICT},
	{"kernel", required_argument, 0, OPT_KERNEL},
	{"exec", required_argument, 0, OPT_EXEC},
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0},
};

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: entrylab run [OPTIONS] [BENCH [ARGS...]]\n"
		"       entrylab run [OPTIONS] --exec FILE [ARGS...]\n"
		"  -c, --cpu SPEC        host[,+feat|,-feat]... (entrylab list features)\n"
		"  -a, --append ARGS     guest kernel command line (entrylab list knobs)\n"
		"  -n, --iterations N    iterations of the measured loop\n"
		"  -e, --events LIST     counters, perf names (entrylab list events)\n"
		"  -r, --repeat N        N runs, a fresh VM each\n"
		"  -m, --memory SIZE     guest memory, e.g. 256M (default 256M)\n"
		"  -o, --output FILE     append records as JSON lines (default: results/)\n"
		"  -x SEP                CSV with separator SEP on stdout\n"
		"      --json            the record as JSON on stdout\n"
		"      --timeout SEC     stop a guest that runs longer (default %.0f)\n"
		"      --pin CPU         pin the vCPU thread\n"
		"      --nested, --no-nested  force or forbid the nested runner\n"
		"      --strict          a knob the vCPU cannot honour is an error\n"
		"      --kernel FILE     boot another guest kernel image\n"
		"  -v                    guest console on stderr\n",
		EL_DEFAULT_TIMEOUT);
}

__attribute__((format(printf, 2, 3)))
static int bad(const char *fix, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "entrylab run: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; %s\n", fix);
	return EL_EXIT_USAGE;
}

static int parse_one(int opt, const char *arg, struct el_cli_run *cli)
{
	uint64_t v;
	char *end;

	switch (opt) {
	case 'c': cli->cpu_spec = arg; break;
	case 'a': cli->append = arg; break;
	case 'e': cli->events = arg; break;
	case 'o': cli->output = arg; break;
	case 'x': cli->csv_sep = arg; break;
	case 'v': cli->verbose = true; break;
	case OPT_JSON: cli->json = true; break;
	case OPT_NESTED: cli->nested = EL_NESTED_FORCE; break;
	case OPT_NO_NESTED: cli->nested = EL_NESTED_FORBID; break;
	case OPT_STRICT: cli->strict = true; break;
	case OPT_KERNEL: cli->kernel = arg; break;
	case OPT_EXEC: cli->exec = arg; break;
	case 'n':
		if (cli_parse_u64(arg, 1, UINT64_MAX, &cli->iterations))
			return bad("give a count such as -n 100000", "--iterations '%s' is not a positive integer", arg);
		break;
	case 'r':
		if (cli_parse_u64(arg, 1, 1000, &v))
			return bad("give e.g. -r 5", "--repeat '%s' is not in 1..1000", arg);
		cli->repeat = (unsigned)v;
		break;
	case 'm':
		if (cli_parse_size(arg, &cli->mem_bytes) || cli->mem_bytes < EL_MIN_MEMORY ||
		    cli->mem_bytes > EL_MAX_MEMORY)
			return bad("give e.g. -m 256M or -m 1G", "--memory '%s' is not a size between 16M and 64G", arg);
		break;
	case OPT_TIMEOUT:
		cli->timeout_s = strtod(arg, &end);
		if (*arg == '\0' || *end || !(cli->timeout_s > 0) || cli->timeout_s > 86400)
			return bad("give e.g. --timeout 30", "--timeout '%s' is not a number of seconds in (0, 86400]", arg);
		break;
	case OPT_PIN:
		if (cli_parse_u64(arg, 0, 4095, &v))
			return bad("give e.g. --pin 1", "--pin '%s' is not a CPU number", arg);
		cli->pin_cpu = (int)v;
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
	char err[512];

	memset(cli, 0, sizeof(*cli));
	cli->cpu_spec = "host";
	cli->append = "";
	cli->repeat = 1;
	cli->mem_bytes = EL_DEFAULT_MEMORY;
	cli->timeout_s = EL_DEFAULT_TIMEOUT;
	cli->pin_cpu = -1;

	optind = 1;
	opterr = 1;
	/* '+': stop at the benchmark name; what follows are its arguments. */
	while ((opt = getopt_long(argc, argv, "+c:a:n:e:r:m:o:x:vh", run_options, NULL)) != -1) {
		if ((rc = parse_one(opt, optarg, cli)))
			return rc;
		/* What follows --exec FILE belongs to the program, options included. */
		if (opt == OPT_EXEC)
			break;
	}

	if (optind < argc && !cli->exec)
		cli->bench = argv[optind++];
	cli->args = argv + optind;
	cli->nargs = argc - optind;

	if (cli->json && cli->csv_sep)
		return bad("choose one output format", "%s", "--json and -x both given");
	if (cpuid_spec_parse(cli->cpu_spec, &cli->spec.cpu, err, sizeof(err))) {
		fprintf(stderr, "entrylab run: %s\n", err);
		return EL_EXIT_USAGE;
	}
	if (strlen(cli->append) > 2000)
		return bad("shorten it", "%s", "--append is longer than 2000 characters");
	if (cli_check_append(cli->append))
		return EL_EXIT_USAGE;
	if (events_parse(cli->events, &cli->ev, err, sizeof(err))) {
		fprintf(stderr, "entrylab run: %s\n", err);
		return EL_EXIT_USAGE;
	}
	events_for_this_cpu(&cli->ev, cli->spec.events);
	cli->spec.nr_events = cli->ev.n;

	cli->spec.append = cli->append;
	cli->spec.mem_bytes = cli->mem_bytes;
	cli->spec.timeout_s = cli->timeout_s;
	cli->spec.pin_cpu = cli->pin_cpu;
	cli->spec.verbose = cli->verbose;
	cli->spec.program_output_to_stderr = cli->json || cli->csv_sep;
	return 0;
}
