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

void el_pass(const char *name);
void el_fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void el_skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* PASS when ok, else FAIL with the reason.  Returns ok. */
bool el_expect(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "PROG: N passed, N failed, N skipped"; returns the exit status (0: none failed). */
int el_summary(const char *prog);

#endif
