/*
 * One meaning of "iteration" per benchmark (vmm/bench_iter.c): the host
 * computes the count each program declares to its region marker from the
 * same arguments, with the same parsing and defaults, in the unit
 * guest/benches.def names.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "bench.h"
#include "program.h"
#include "status.h"
#include "trace.h"

static struct el_bench_iter iter_of(const char *bench, char *const *argv, int argc)
{
	struct el_bench_iter it;

	cr_assert(bench_find(bench), "%s is a benchmark", bench);
	bench_iterations(bench_find(bench), argv, argc, &it);
	return it;
}

Test(bench_iter, pagefault_counts_faults_with_rounds_and_size_beside)
{
	struct el_bench_iter it = iter_of("pagefault", (char *[]){"16M", "4"}, 2);

	cr_expect_eq(it.iterations, 16384, "16 MiB / 4 KiB x 4 rounds");
	cr_expect_eq(it.rounds, 4);
	cr_expect_eq(it.size, 16ull << 20);
	cr_expect_str_eq(it.unit, "page fault");
	it = iter_of("pagefault", NULL, 0);
	cr_expect_eq(it.iterations, 10 * 1024, "defaults 4M 10");
	it = iter_of("pagefault", (char *[]){"1G", "100"}, 2);
	cr_expect_eq(it.iterations, 100ull * 262144, "the seed: 1 GiB x 100");
	it = iter_of("pagefault", (char *[]){"5000", "1k"}, 2);
	cr_expect_eq(it.size, 8192, "sizes are page-rounded");
	cr_expect_eq(it.iterations, 2000, "counts take k = 1000");
	it = iter_of("pagefault", (char *[]){"lots"}, 1);
	cr_expect_eq(it.iterations, 0, "unreadable: unknown, never guessed");
}

Test(bench_iter, first_argument_elsewhere)
{
	struct el_bench_iter it = iter_of("gettid", (char *[]){"1M"}, 1);

	cr_expect_eq(it.iterations, 1000000);
	cr_expect_str_eq(it.unit, "syscall");
	cr_expect_eq(it.rounds, 0);
	cr_expect_eq(iter_of("clock_gettime", NULL, 0).iterations, 100000, "default 100000 libc");
	cr_expect_eq(iter_of("irq", (char *[]){"500", "10"}, 2).iterations, 500);
	cr_expect_str_eq(iter_of("irq", NULL, 0).unit, "interrupt");
	cr_expect_str_eq(iter_of("lseek", NULL, 0).unit, "lseek");
}

Test(bench_iter, every_bench_has_a_unit_and_a_default_count)
{
	const struct el_bench *b;

	for (unsigned i = 0; (b = bench_at(i)); i++) {
		struct el_bench_iter it;

		bench_iterations(b, NULL, 0, &it);
		cr_expect(b->unit && *b->unit, "%s has an iteration unit", b->name);
		cr_expect_gt(it.iterations, 0, "%s: its defaults say how many", b->name);
	}
}

Test(bench_iter, programs_carry_the_declared_count)
{
	struct el_programs p;
	char err[512];

	cr_assert_eq(programs_prepare(&p, &(struct el_program_choice){
		.bench = "pagefault", .args = (char *[]){"16M", "4"}, .nargs = 2}, err,
		sizeof(err)), 0, "%s", err);
	cr_expect_eq(p.iterations, 16384);
	programs_free(&p);
	cr_expect_eq(programs_prepare(&p, &(struct el_program_choice){
		.bench = "pagefault", .iterations = 5}, err, sizeof(err)), EL_EXIT_USAGE);
	cr_expect(strstr(err, "page fault") && strstr(err, "pagefault 16M 4"),
		  "-n for pagefault is refused with the fix: %s", err);
	programs_free(&p);
}

Test(bench_iter, trace_reads_the_declared_count)
{
	uint64_t n = 0;

	cr_expect(trace_console_iterations("boot\npagefault iterations=16384 size=16777216 rounds=4 "
					   "ns_per_iter=1.0 region=marked\n", "pagefault", &n));
	cr_expect_eq(n, 16384, "the program's result line");
	cr_expect(trace_console_iterations("pagefault iterations=7 x\nregion: iterations 16384 "
					   "tsc_ticks 1 tsc_khz 1 syscalls 0 page_faults 0 "
					   "interrupts 0\n", "pagefault", &n));
	cr_expect_eq(n, 16384, "the guest kernel's region line wins");
	cr_expect_not(trace_console_iterations("pagefaulty iterations=3\n", "pagefault", &n));
	cr_expect_not(trace_console_iterations("nothing\n", "gettid", &n));
}
