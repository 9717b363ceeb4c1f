/* Inside harness/bochs/: the helper-process runner (bochs_spawn.c). */
#ifndef EL_BOCHS_PRIV_H
#define EL_BOCHS_PRIV_H

#include <stdbool.h>

struct bochs_exec_result {
	int wait_status;   /* waitpid's */
	bool timed_out;    /* killed at the deadline */
	bool not_found;    /* no such executable */
	char err[300];     /* why it could not start */
};

/*
 * Runs argv with stdout+stderr into out_path (created), stdin /dev/null,
 * for at most timeout_s seconds.  0 when it ran (r says how it ended), -1
 * when it could not start (r->err, r->not_found).
 */
int bochs_exec(const char *const argv[], const char *out_path, double timeout_s,
	       struct bochs_exec_result *r);

#endif
