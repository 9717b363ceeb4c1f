/*
 * The nested runner and its inner VMM's failures: an inner
 * entrylab killed by a signal is a VMM error (125) naming the signal, never
 * a guest exit status (128 + N); a bad --kernel is refused on the host (120)
 * before any VM boots.  ENTRYLAB_TEST_INNER_CRASH is the test hook
 * (harness/nested/nested_priv.h).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(nested_crash, .timeout = 300);

static void expect_killed(const char *sig, const char *name)
{
	struct el_proc p;
	const char *out = tmp_output("crash.jsonl");

	setenv("ENTRYLAB_TEST_INNER_CRASH", sig, 1);
	entrylab(&p, "run", "--nested", "-o", out, "getpid", "1000", NULL);
	unsetenv("ENTRYLAB_TEST_INNER_CRASH");
	cr_expect_eq(p.status, 125, "inner SIG%s: want exit 125 (vmm-error), got %d\n%s", sig,
		     p.status, p.err);
	cr_expect(strstr(p.err, name), "the message must name %s:\n%s", name, p.err);
	cr_expect(strstr(p.err, "no record came back"), "and say no record came back:\n%s", p.err);
	cr_expect(!strstr(p.err, "records appended"), "no claim of records:\n%s", p.err);
	cr_expect_eq(record_count(out), 0);
	proc_free(&p);
}

Test(nested_crash, inner_segv_is_vmm_error)
{
	expect_killed("SEGV", "SIGSEGV");
}

Test(nested_crash, inner_abort_is_vmm_error)
{
	expect_killed("ABRT", "SIGABRT");
}

/* A 1 GiB sparse --kernel: refused from its size on the host, before the nested VM. */
Test(nested_crash, huge_kernel_refused_before_boot)
{
	struct el_proc p;
	const char *out = tmp_output("k.jsonl");
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.kernel", out);
	f = fopen(path, "w");
	cr_assert(f);
	cr_assert_eq(ftruncate(fileno(f), 1ll << 30), 0);
	fclose(f);
	entrylab(&p, "run", "--nested", "--kernel", path, "-o", out, NULL);
	cr_expect_eq(p.status, 120, "want 120, got %d\n%s", p.status, p.err);
	cr_expect(strstr(p.err, "64 MiB limit"), "%s", p.err);
	cr_expect(!strstr(p.err, "QEMU TCG"), "refused on the host, no nested VM:\n%s", p.err);
	proc_free(&p);
	entrylab(&p, "trace", "--kernel", path, "-o", out, "getpid", NULL);
	cr_expect_eq(p.status, 120, "trace: want 120, got %d\n%s", p.status, p.err);
	proc_free(&p);
	unlink(path);
}
