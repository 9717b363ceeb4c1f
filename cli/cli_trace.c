/*
 * `entrylab trace` options: run's options that make sense under QEMU TCG
 * (the rest are refused with the reason), plus --listing, --top and --qemu.
 * Fills the same struct el_cli_run as `run`, so the request, the programs and
 * the record are prepared exactly as run prepares them.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "cli.h"
#include "parse_num.h"


enum {
	OPT_LISTING = EL_OPT_PRIVATE,
	OPT_TOP,
	OPT_QEMU,
	OPT_RUN_ONLY,
};

static const struct option trace_options[] = {
	EL_CLI_SHARED_OPTIONS,
	{"listing", no_argument, 0, OPT_LISTING},
	{"top", required_argument, 0, OPT_TOP},
	{"qemu", required_argument, 0, OPT_QEMU},
	/* run's options that mean nothing here: refused with the reason. */
	{"events", required_argument, 0, 'e'},
	{"repeat", required_argument, 0, 'r'},
	{"pin", required_argument, 0, OPT_RUN_ONLY},
	{"nested", no_argument, 0, OPT_RUN_ONLY},
	{"no-nested", no_argument, 0, OPT_RUN_ONLY},
	{"strict", no_argument, 0, OPT_RUN_ONLY},
	{0, 0, 0, 0},
};

static void trace_usage(FILE *f)
{
	fprintf(f,
		"usage: entrylab trace [OPTIONS] BENCH [ARGS...]\n"
		"       entrylab trace [OPTIONS] --exec FILE [ARGS...]\n"
		"Boots the guest under QEMU TCG (-cpu max, no KVM) and counts every instruction\n"
		"executed between the region markers, by privilege and by symbol: exact and\n"
		"deterministic on any machine.  The guest gets el.tsc_khz=1000000 (no PIT\n"
		"calibration) and boots with qboot where installed.\n"
		"  -c, --cpu SPEC        host[,+feat|,-feat]...: QEMU's \"max\" with the toggles\n"
		"  -a, --append ARGS     guest kernel command line (entrylab list knobs)\n"
		"  -n, --iterations N    iterations of the measured loop\n"
		EL_CLI_HELP_DIVISOR
		"  -m, --memory SIZE     guest memory, e.g. 256M (default 256M)\n"
		"  -o, --output FILE     append the record as a JSON line (default: results/)\n"
		"  -x SEP                CSV with separator SEP on stdout\n"
		"      --json            the record as JSON on stdout\n"
		"      --listing         also print each instruction of the region, with counts\n"
		"                        and a mark for CR3 writes, SWAPGS, SYSRET, IRET, WRMSR, ...\n"
		"      --top N           symbols in the table (default 15)\n"
		"      --timeout SEC     stop a guest that runs longer (default %.0f)\n"
		EL_CLI_HELP_REGION
		EL_CLI_HELP_FILE
		"      --guest KIND      entrylab (our kernel, default) or linux: a Linux kernel\n"
		"                        with our /init runs the same program (docs/linux-guest.md)\n"
		"      --kernel FILE     the kernel to boot: ours by default; with --guest linux\n"
		"                        an ELF vmlinux or bzImage (default: Debian's, as fetched\n"
		"                        for the nested runner)\n"
		"      --qemu FILE       the qemu-system-x86_64 to use (default: $ENTRYLAB_QEMU,\n"
		"                        else qemu-system-x86_64 from PATH)\n"
		"  -v                    guest console on stderr (control bytes as \\xHH)\n",
		EL_TRACE_TIMEOUT);
	cli_limits_help(f);
}

static int parse_one(int opt, const char *arg, const char *optname, struct el_cli_trace *t)
{
	uint64_t v;
	int rc = cli_parse_shared("trace", opt, arg, &t->run);

	if (rc >= 0)
		return rc;
	switch (opt) {
	case OPT_LISTING: t->opts.listing = true; break;
	case OPT_QEMU: t->opts.qemu = arg; break;
	case OPT_TOP:
		if (el_parse_u64(arg, 1, 100000, &v))
			return cli_bad("trace", "give e.g. --top 30", "--top '%s' is not a count", arg);
		t->opts.top = (unsigned)v;
		break;
	case 'e':
		return cli_bad("trace", "use `entrylab run -e` for PMU counters",
			   "-e: a trace counts instructions exactly and has no PMU events");
	case 'r':
		return cli_bad("trace", "run it once",
			   "-r: a trace is deterministic, repeats give the same counts");
	case OPT_RUN_ONLY:
		return cli_bad("trace", "drop it", "--%s applies to `entrylab run` only (a trace runs under "
			   "QEMU TCG here, never on KVM or the nested runner)", optname);
	case 'h':
		trace_usage(stdout);
		exit(0);
	default:
		trace_usage(stderr);
		return EL_EXIT_USAGE;
	}
	return 0;
}

int cli_trace_parse(int argc, char **argv, struct el_cli_trace *t)
{
	struct el_cli_run *cli = &t->run;
	int opt, idx, rc;

	memset(t, 0, sizeof(*t));
	request_init(&cli->req);
	cli->req.mem_bytes = EL_TRACE_MEMORY;
	cli->req.timeout_s = EL_TRACE_TIMEOUT;
	cli->nested = EL_NESTED_FORBID;

	optind = 1;
	opterr = 1;
	/* '+': stop at the benchmark name; what follows are its arguments. */
	while ((opt = getopt_long(argc, argv, "+c:a:n:e:r:m:o:x:vh", trace_options, &idx)) != -1) {
		const char *name = opt == OPT_RUN_ONLY ? trace_options[idx].name : NULL;

		if ((rc = parse_one(opt, optarg, name, t)))
			return rc;
		/* What follows --exec FILE belongs to the program, options included. */
		if (opt == EL_OPT_EXEC)
			break;
	}
	if (optind < argc && !cli->req.exec)
		cli->req.bench = argv[optind++];
	cli->req.args = argv + optind;
	cli->req.nargs = argc - optind;

	if (!cli->req.bench && !cli->req.exec)
		return cli_bad("trace", "name one (`entrylab list benches`) or give --exec FILE",
			   "%s", "no benchmark to trace");
	return cli_finish("trace", cli);
}
