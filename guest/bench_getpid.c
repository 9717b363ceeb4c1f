/* getpid: the null syscall through musl's getpid() (seed 003). */
#include <unistd.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "getpid",
	.synopsis = "[ITERATIONS]",
	.help = "  ITERATIONS  getpid() calls in the measured loop (default 10000)\n",
	.max_args = 1,
};

int main(int argc, char **argv)
{
	uint64_t n, mismatches = 0, t0, t1;
	pid_t pid;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 10000);
	pid = getpid();

	t0 = el_now_ns();
	el_region_begin(n);
	for (uint64_t i = 0; i < n; i++)
		mismatches += getpid() != pid;
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "pid=%d mismatches=%llu", (int)pid,
		  (unsigned long long)mismatches);
	return mismatches != 0;
}
