/*
 * The seed's scale (harness/matrix/experiment_seed.c) and what a boot is
 * expected to cost (record/request_estimate.c): seed_* keys resolve like
 * args and iterations, --scale seed applies them, every shipped experiment
 * has one, and timeouts follow from the work.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "request.h"

static int load_text(const char *text, struct el_experiment *e)
{
	char path[] = "/tmp/el-seed-XXXXXX";
	int fd = mkstemp(path), n;
	FILE *err = fopen("/dev/null", "w");

	cr_assert(fd >= 0 && err);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	n = experiment_load(path, e, err);
	fclose(err);
	unlink(path);
	return n;
}

Test(seed_scale, keys_resolve_like_args_and_iterations)
{
	struct el_experiment e;

	cr_assert_eq(load_text("[experiment]\nname = s\nbench = gettid\nargs = 100\n"
			       "seed_iterations = 1000000\nseed_repeat = 100\n"
			       "[variant a]\n"
			       "[variant b]\nbench = pagefault\nargs = 4M 1\nseed_args = 1G 100\n"
			       "[variant c]\nbench = irq\n", &e), 0);
	cr_expect(e.has_seed_scale);
	cr_expect_eq(e.seed_repeat, 100);
	cr_expect_eq(e.variants[0].seed_iterations, 1000000);
	cr_expect_null(e.variants[0].seed_args);
	cr_expect_str_eq(e.variants[1].seed_args, "1G 100");
	cr_expect_eq(e.variants[1].seed_iterations, 0, "the experiment's are for its own bench");
	cr_expect_eq(e.variants[2].seed_iterations, 0);
	cr_assert_eq(experiment_scale_seed(&e, stderr), 0);
	cr_expect_eq(e.repeat, 100);
	cr_expect_eq(e.variants[0].iterations, 1000000);
	cr_expect_str_eq(e.variants[0].args, "100");
	cr_expect_str_eq(e.variants[1].args, "1G 100");
	cr_expect_str_eq(e.variants[2].bench, "irq");
	cr_expect_eq(e.variants[2].iterations, 0, "no seed size: as the file says");
	experiment_free(&e);
}

Test(seed_scale, mistakes_and_absence)
{
	struct el_experiment e;
	FILE *err = fopen("/dev/null", "w");

	cr_expect_gt(load_text("[experiment]\nname = s\nbench = pagefault\n"
			       "seed_iterations = 5\n[variant a]\n", &e), 0,
		     "pagefault's iterations are faults: no seed_iterations either");
	experiment_free(&e);
	cr_expect_gt(load_text("[experiment]\nname = s\nbench = gettid\nseed_repeat = 0\n"
			       "[variant a]\n", &e), 0);
	experiment_free(&e);
	cr_assert_eq(load_text("[experiment]\nname = s\nbench = gettid\n[variant a]\n", &e), 0);
	cr_expect_not(e.has_seed_scale);
	cr_expect_eq(experiment_scale_seed(&e, err), -1, "--scale seed without seed keys");
	experiment_free(&e);
	fclose(err);
}

Test(seed_scale, every_shipped_experiment_has_one)
{
	char **paths;
	int n = experiment_list_files(&paths);

	cr_assert_geq(n, 4);
	for (int i = 0; i < n; i++) {
		struct el_experiment e;

		cr_expect_eq(experiment_load(paths[i], &e, stderr), 0, "%s", paths[i]);
		cr_expect(e.has_seed_scale, "%s has a --scale seed", paths[i]);
		cr_expect_eq(experiment_scale_seed(&e, stderr), 0, "%s", paths[i]);
		experiment_free(&e);
	}
	experiment_list_free(paths, n);
}

static void estimate(const char *bench, char **args, int nargs, uint64_t n, bool nested,
		     struct el_estimate *e)
{
	struct el_run_request r;

	request_init(&r);
	r.bench = bench;
	r.args = args;
	r.nargs = nargs;
	r.iterations = n;
	request_estimate(&r, nested, e);
}

Test(seed_scale, timeouts_follow_from_the_work)
{
	struct el_estimate e;

	estimate("pagefault", (char *[]){"1G", "100"}, 2, 0, true, &e);
	cr_expect(e.known);
	cr_expect_eq(e.iterations, 26214400);
	cr_expect_str_eq(e.unit, "page fault");
	/* measured: 79.6 s of region in the nested runner; 120 s is too short */
	cr_expect(e.run_s > 60 && e.run_s < 120, "%.1f s", e.run_s);
	cr_expect_gt(request_estimate_timeout(&e), 300.0);
	estimate("pagefault", (char *[]){"1G", "100"}, 2, 0, false, &e);
	cr_expect_lt(e.run_s, 20.0, "natively a tenth of that: %.1f s", e.run_s);
	estimate("getpid", NULL, 0, 0, true, &e);
	cr_expect_eq(e.iterations, 10000, "the default arguments");
	cr_expect_eq(request_estimate_timeout(&e), EL_DEFAULT_TIMEOUT, "small work: the default");
	estimate("gettid", (char *[]){"100"}, 1, 1000000, true, &e);
	cr_expect_eq(e.iterations, 1000000, "-n replaces the count");
	estimate(NULL, NULL, 0, 0, true, &e);
	cr_expect_not(e.known, "--exec: unknown, never guessed");
	cr_expect_eq(request_estimate_timeout(&e), EL_DEFAULT_TIMEOUT);
}
