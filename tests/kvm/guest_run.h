/*
 * One guest test program (build/guest/PROG) run under one entry variant
 * and checked the same way for every suite that runs them (entry_full,
 * i386): a record that says ok, exit status 0, the output it must print,
 * no FAIL line, guest.unknown_syscalls 0 and the effective configuration
 * the run asked for.  A record saying unsupported skips the test with its
 * detail; SKIP lines are logged.
 */
#ifndef EL_TEST_GUEST_RUN_H
#define EL_TEST_GUEST_RUN_H

struct guest_run {
	const char *prog;          /* a program of build/guest/ */
	const char *args;          /* its arguments, blank-separated; "" none */
	const char *pti, *ret, *irq; /* the variant: pti=, entry.ret=, entry.irq_return= */
	const char *want;          /* text its output must hold; NULL: a "PASS: " line */
	const char *missing;       /* prog not built: skip saying this; NULL: the test fails */
};

void guest_run_checked(const struct guest_run *r);

#endif
