/*
 * Running the program under the region page and the perf group of
 * include/entrylab/linux_init.h, and what it leaves behind.
 */
#ifndef LINIT_RUN_H
#define LINIT_RUN_H

#include <stddef.h>

#include <entrylab/abi.h>
#include <entrylab/linux_init.h>

#include "conf.h"
#include "report.h"

struct linit_run {
	int status;                  /* exit status; 128 + the signal that killed it, as a shell */
	uint32_t scope;              /* conf's region=: enum el_region_scope */
	struct el_linux_region page; /* a copy of the page as the program left it */
	struct linit_whole whole;    /* region=whole: its TSC readings; else zero */
	struct el_counter c[EL_MAX_COUNTERS]; /* conf's events, in order */
};

/*
 * A zeroed region page (memfd of EL_LINUX_REGION_SIZE) at descriptor
 * EL_LINUX_REGION_FD, not close-on-exec.  0, or -1 with err.
 */
int linit_region_page(char *err, size_t errlen);

/*
 * Forks the program (EL_LINUX_PROGRAM, argv[0] its path), opens conf's
 * events on it in one disabled group, hands it the page and the group
 * leader (at EL_LINUX_PERF_FD, named in the environment), waits for it and
 * reads both.  With region=whole the events are opened alone, inherited
 * and enabled by its execve, no group is handed over, and whole holds the
 * TSC before its execve and after waitpid (the page is read, not used).
 * 0, or -1 with err (the program did not run or the counters failed /init).
 */
int linit_run_program(const struct linit_conf *conf, char **argv, struct linit_run *r,
		      char *err, size_t errlen);

#endif
