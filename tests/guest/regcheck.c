/*
 * regcheck: nothing but what the ABI allows may change in user registers
 * across kernel entries.  Each round loads fresh random values into all 15
 * general registers, RFLAGS (status flags, DF, AC, NT) and the 128-byte red
 * zone, lets one event happen (regcheck_asm.S), and compares:
 *   syscall         only RAX (result), RCX (= RIP after SYSCALL), R11 (= RFLAGS)
 *   read/write fault on a fresh anonymous page: nothing (the load lands in XMM0)
 *   spin windows    interrupts may arrive: nothing (LOOP keeps RFLAGS, DEC keeps RCX)
 *   self-IPI        EL_SYS_SELF_IPI, then a window the IPIs hit: as a syscall
 *   vsyscall call   C ABI: callee-saved registers, RSP, DF clear, right results
 * Exit 0 when every round matched.  Runs on Linux too (without --self-ipi).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <entrylab/abi.h>

#include "check.h"
#include "regcheck.h"

static const char usage[] =
	"usage: regcheck [-n ROUNDS] [-s SPIN] [--vsyscall] [--self-ipi[=COUNT]]\n"
	"  -n ROUNDS          rounds of every event (default 500)\n"
	"  -s SPIN            iterations of each interrupt window (default 100000)\n"
	"  --vsyscall         also call the vsyscall page (needs vsyscall=native, emulate\n"
	"                     or xonly; under vsyscall=none the call kills the process)\n"
	"  --self-ipi[=COUNT] also take COUNT (default 4) self-IPIs per round in a window\n"
	"                     (EL_SYS_SELF_IPI: the entrylab kernel only)\n";

static struct rc_opts opts = { .rounds = 500, .spin = 100000, .ipis = 0, .vsyscall = 0 };

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "vsyscall", no_argument, NULL, 'v' },
		{ "self-ipi", optional_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "n:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			opts.rounds = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				goto bad;
			break;
		case 's':
			opts.spin = strtoul(optarg, &end, 10);
			if (*end || !*optarg || !opts.spin)
				goto bad;
			break;
		case 'v':
			opts.vsyscall = 1;
			break;
		case 'i':
			opts.ipis = optarg ? strtoul(optarg, &end, 10) : 4;
			if ((optarg && (*end || !*optarg)) || !opts.ipis ||
			    opts.ipis > EL_SELF_IPI_MAX)
				goto bad;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			goto bad;
		}
	}
	if (optind == argc)
		return;
bad:
	fputs(usage, stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	printf("regcheck: %lu rounds, spin %lu, vsyscall %s, self-IPIs %s\n", opts.rounds,
	       opts.spin, opts.vsyscall ? "on" : "off", opts.ipis ? "on" : "off");
	rc_run_all(&opts);
	return el_summary("regcheck");
}
