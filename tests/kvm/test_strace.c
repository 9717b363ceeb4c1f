/*
 * strace -f on our guest kernel: Debian's strace, built static from its
 * source package by harness/strace-static.sh, unmodified, follows a
 * program and the child it forks (tests/guest/stracee.c) as on Linux:
 * both processes' syscalls, the child's lines marked [pid N], each exit,
 * and strace's own status is the traced program's.  Skips, with the
 * script's reason, when strace cannot be built here (no archive, no
 * compiler).  strace writes to stderr; the program to stdout.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness.h"

#define GUEST_BIN    EL_BINARY_DIR "/guest/"
#define STRACE_CACHE EL_BINARY_DIR "/strace-static"

TestSuite(strace, .timeout = 1800);

/* The static strace's host path, or a skip with the build script's reason. */
static const char *static_strace(void)
{
	const char *argv[] = {"/bin/sh", EL_SOURCE_DIR "/harness/strace-static.sh", STRACE_CACHE,
			      NULL};
	struct el_proc p;

	proc_run(&p, argv);
	if (p.status == 2)
		cr_skip_test("strace cannot be built here: %s", p.err);
	cr_assert_eq(p.status, 0, "harness/strace-static.sh failed (%d):\n%s\n%s", p.status, p.out,
		     p.err);
	proc_free(&p);
	return STRACE_CACHE "/strace";
}

Test(strace, follows_a_fork_with_f)
{
	const char *strace = static_strace();
	char file[512], out[160];
	struct el_proc p;
	const char *child_write;

	snprintf(out, sizeof(out), "%s", tmp_output("strace.jsonl"));
	snprintf(file, sizeof(file), "%s=/bin/stracee", GUEST_BIN "stracee");
	const char *argv[] = {EL_ENTRYLAB, "run", "-o",           out, "--file", file, "--exec",
			      strace,      "-f",  "/bin/stracee", NULL};

	proc_run(&p, argv);
	/* strace exits with its tracee's status. */
	cr_expect_eq(p.status, 7, "strace's status must be the traced program's (7), got %d\n%s\n%s",
		     p.status, p.out, p.err);
	cr_expect(strstr(p.err, "execve(\"/bin/stracee\", [\"/bin/stracee\"]"), "%s%s", p.out,
		  p.err);
	cr_expect(strstr(p.err, "fork(") || strstr(p.err, "clone("),
		  "the parent's fork is not shown:\n%s%s", p.out, p.err);
	child_write = strstr(p.err, "write(1, \"stracee: child\\n\", 15)");
	cr_expect(child_write && strstr(p.err, "[pid ") && strstr(p.err, "[pid ") < child_write,
		  "the child's write, marked [pid N]:\n%s%s", p.out, p.err);
	cr_expect(strstr(p.err, "exit_group(3)") && strstr(p.err, "+++ exited with 3 +++"),
		  "the child's exit:\n%s%s", p.out, p.err);
	cr_expect(strstr(p.err, "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED"),
		  "the parent's SIGCHLD:\n%s%s", p.out, p.err);
	cr_expect(strstr(p.err, "wait4("), "the parent's wait:\n%s%s", p.out, p.err);
	cr_expect(strstr(p.err, "write(1, \"stracee: parent\\n\", 16)"), "%s%s", p.out, p.err);
	cr_expect(strstr(p.err, "exit_group(7)") && strstr(p.err, "+++ exited with 7 +++"),
		  "the parent's exit:\n%s%s", p.out, p.err);
	cr_expect(strstr(p.out, "stracee: child\n") && strstr(p.out, "stracee: parent\n"),
		  "the program's own output:\n%s", p.out);
	cr_expect(!strstr(p.err, "Unexpected") && !strstr(p.err, "ptrace(PTRACE_"),
		  "strace complained:\n%s%s", p.out, p.err);
	proc_free(&p);
}
