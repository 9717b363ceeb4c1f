/*
 * `entrylab matrix EXPERIMENT --scale seed`: the seed's sizes, a timeout
 * that follows from them, and --dry-run's estimate; nothing here boots.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(seed_scale, .timeout = 120);

Test(seed_scale, dry_run_shows_seed_sizes_and_estimates)
{
	const char *out = tmp_output("seed-dry.jsonl");
	struct el_proc p;

	entrylab(&p, "matrix", "pagefault-return", "--scale", "seed", "--dry-run", "-o", out,
		 NULL);
	cr_assert_eq(p.status, 0, "%s", p.err);
	cr_expect(strstr(p.out, "pagefault 1G 100"), "the seed's workload: %s", p.out);
	cr_expect(strstr(p.out, "26,214,400 page faults"), "%s", p.out);
	cr_expect(strstr(p.out, "per boot, timeout "), "%s", p.out);
	cr_expect(!strstr(p.out, "timeout 120 s;"), "1G x 100 needs more than 120 s: %s", p.out);
	cr_expect(strstr(p.out, "  total "), "the whole matrix: %s", p.out);
	cr_expect_eq(record_count(out), 0, "a dry run boots nothing");
	proc_free(&p);

	entrylab(&p, "matrix", "irq-return", "--scale", "seed", "--dry-run", "--only",
		 "gettid-direct", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "%s", p.err);
	cr_expect(strstr(p.out, "100 x entrylab run") && strstr(p.out, "-n 1000000 gettid"),
		  "gettid x 1M, 100 runs: %s", p.out);
	proc_free(&p);
}

Test(seed_scale, short_timeout_fails_early_with_the_fix)
{
	struct el_proc p;

	entrylab(&p, "matrix", "pagefault-return", "--scale", "seed", "--timeout", "30",
		 "--dry-run", NULL);
	cr_expect_eq(p.status, 120, "%s", p.err);
	cr_expect(strstr(p.err, "longer than --timeout 30") && strstr(p.err, "give --timeout "),
		  "%s", p.err);
	proc_free(&p);

	entrylab(&p, "run", "--timeout", "30", "pagefault", "1G", "100", NULL);
	cr_expect_eq(p.status, 120, "%s", p.err);
	cr_expect(strstr(p.err, "give --timeout "), "%s", p.err);
	proc_free(&p);

	entrylab(&p, "matrix", EL_SOURCE_DIR "/tests/kvm/matrix-tiny.ini", "--scale", "seed",
		 "--dry-run", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "has no seed scale"), "%s", p.err);
	proc_free(&p);

	entrylab(&p, "matrix", "pagefault-return", "--scale", "huge", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "--scale seed"), "%s", p.err);
	proc_free(&p);
}
