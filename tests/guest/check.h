/*
 * PASS/FAIL/SKIP lines for the guest test programs, one per check:
 *   PASS: name
 *   FAIL: name: why
 *   SKIP: name: why
 * and a summary line at the end.  Output is flushed per line so a crash
 * leaves every earlier verdict on the console.
 */
#ifndef EL_TEST_CHECK_H
#define EL_TEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "array_size.h"

void el_pass(const char *name);
void el_fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void el_skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* PASS when ok, else FAIL with the reason.  Returns ok. */
bool el_expect(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "PROG: N passed, N failed, N skipped"; returns the exit status (0: none failed). */
int el_summary(const char *prog);

/*
 * One group of checks: the name that selects it, what it checks, the checks.
 * A group whose `what` ends in "(extra)" runs only when named; --list marks
 * it "[not run by default]".
 */
struct el_group {
	const char *name, *what;
	void (*run)(void);
};

/*
 * The command line every group-structured check program has:
 *   PROG              every group but the extra ones
 *   PROG GROUP...     only these (in the table's order)
 *   PROG --list       the groups, one a line
 * A name that is no group: a message on stderr and status 2, nothing run.
 * Before the groups, stdout gets setvbuf mode buf_mode (_IOLBF, or _IONBF
 * where children print too), and each group starts with "PROG: NAME: WHAT".
 * Returns main's exit status: 0 for --list, else el_summary's.
 */
int el_run_groups(const char *prog, const struct el_group *groups, size_t n, int buf_mode, int argc,
		  char **argv);
#define EL_RUN_GROUPS(prog, groups, buf_mode, argc, argv) \
	el_run_groups(prog, groups, EL_ARRAY_SIZE(groups), buf_mode, argc, argv)

#endif
