/* gettid: the null syscall of seed 003, through musl's syscall() (older musl has no gettid()). */
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "gettid",
	.synopsis = "[ITERATIONS]",
	.help = "  ITERATIONS  gettid calls in the measured loop (default 10000; seed: 1M)\n",
	.max_args = 1,
};

int main(int argc, char **argv)
{
	uint64_t n, mismatches = 0, t0, t1;
	long tid;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 10000);
	tid = syscall(SYS_gettid);

	t0 = el_now_ns();
	el_region_begin(n);
	for (uint64_t i = 0; i < n; i++)
		mismatches += syscall(SYS_gettid) != tid;
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "tid=%ld mismatches=%llu", tid,
		  (unsigned long long)mismatches);
	return mismatches != 0;
}
