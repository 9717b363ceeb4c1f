/*
 * entrylab: boot a purpose-built guest kernel under KVM with the CPU
 * features and entry-code variants you choose, run a benchmark in guest
 * user mode, and compare what it cost.  Subcommands come from a table.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "commands.h"
#include "hostout.h"
#include "nested.h"
#include "status.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{"run", cmd_run, "run [OPTIONS] [BENCH [ARGS...]]   boot, run, write one record per repeat"},
	{"trace", cmd_trace, "trace [OPTIONS] BENCH [ARGS...]   exact path of the region (QEMU TCG)"},
	{"matrix", cmd_matrix, "matrix EXPERIMENT [OPTIONS]       every variant of an experiment, repeated"},
	{"compare", cmd_compare, "compare [--json|-x SEP] FILE...   side-by-side table of records"},
	{"cpuid", cmd_cpuid, "cpuid [--cpu SPEC] [--json]       what the guest would see"},
	{"engine", cmd_engine, "engine [--json]                   which engine runs here, and why"},
	{"runner", cmd_runner, "runner [status|stop]              the nested runner's warm VMs"},
	{"list", cmd_list, "list benches|events|knobs|features|experiments"},
};

#define NCOMMANDS EL_ARRAY_SIZE(commands)

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: entrylab COMMAND [ARGS...]\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  entrylab %s\n", commands[i].usage);
	fprintf(f, "  entrylab --version\n"
		   "Exit status: the guest program's own on completion; %d usage, %d unsupported,\n"
		   "%d guest crash, %d guest bad I/O, %d timeout, %d VMM error (README.md).\n",
		EL_EXIT_USAGE, EL_EXIT_UNSUPPORTED, EL_EXIT_GUEST_CRASH, EL_EXIT_GUEST_BAD_IO,
		EL_EXIT_TIMEOUT, EL_EXIT_VMM);
}

int main(int argc, char **argv)
{
	size_t i;

	/*
	 * A closed stdout (`entrylab run ... | head`) must not kill us before the
	 * records are written: writes fail with EPIPE instead.
	 */
	signal(SIGPIPE, SIG_IGN);
	/* The program's output through io_uring unless ENTRYLAB_NO_URING (vmm/hostout.h). */
	hostout_init(getenv("ENTRYLAB_NO_URING") != NULL);

	/* PID 1 of the nested runner's VM (harness/nested/init): not a command of ours. */
	if (argc == 2 && !strcmp(argv[1], "__nested-agent"))
		return nested_agent_main();
	if (argc < 2) {
		usage(stderr);
		return EL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("entrylab %s\n", ENTRYLAB_VERSION);
		return 0;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "entrylab: unknown command '%s'; `entrylab --help` lists them\n", argv[1]);
	return EL_EXIT_USAGE;
}
