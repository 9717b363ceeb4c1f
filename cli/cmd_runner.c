/*
 * `entrylab runner [status|stop]`: the nested runner's warm VMs
 * (harness/nested/nested_runner.c): which slots hold one, busy or idle,
 * with QEMU's pid; `stop` powers off the idle ones (a busy one is left to
 * its command).  Where /dev/kvm works there are none.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nested.h"
#include "status.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: entrylab runner [status|stop]\n"
		   "  status   the warm nested runners: slot directory, busy or idle, QEMU pid\n"
		   "           (the default)\n"
		   "  stop     stop the idle ones now (each stops by itself after\n"
		   "           ENTRYLAB_NESTED_IDLE seconds without a command, default 600)\n");
}

int cmd_runner(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "status";

	if (argc > 2 || (strcmp(what, "status") && strcmp(what, "stop") &&
			 strcmp(what, "--help") && strcmp(what, "-h"))) {
		usage(stderr);
		return EL_EXIT_USAGE;
	}
	if (!strcmp(what, "--help") || !strcmp(what, "-h")) {
		usage(stdout);
		return 0;
	}
	return nested_runner_list(!strcmp(what, "stop"), stdout);
}
