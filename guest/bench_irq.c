/*
 * irq: interrupt entry and return from user mode (seeds 000, 003).  The
 * entrylab kernel's EL_SYS_SELF_IPI makes `batch` self-IPIs arrive back to
 * back in user mode right after it returns (include/entrylab/abi.h); the loop
 * asks for COUNT of them in all.  Linux has no such service: exit 77.
 */
#include <stdio.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "irq",
	.synopsis = "[COUNT] [BATCH]",
	.help = "  COUNT  interrupts in the measured region (default 10000)\n"
		"  BATCH  interrupts per EL_SYS_SELF_IPI call (default 100; 1 puts a syscall\n"
		"         around every interrupt)\n",
	.max_args = 2,
};

int main(int argc, char **argv)
{
	uint64_t count, batch, done = 0, calls = 0, t0, t1;
	long ret = 0;

	el_bench_start(&bench, argc, argv);
	count = el_arg_count(&bench, argc, argv, 1, 10000);
	batch = el_arg_count(&bench, argc, argv, 2, 100);
	if (batch < 1 || batch > EL_SELF_IPI_MAX)
		el_usage_error(&bench, "BATCH must be between 1 and %u", EL_SELF_IPI_MAX);

	if (!el_entrylab()) {
		fprintf(stderr, "irq: needs the entrylab guest kernel (syscall EL_SYS_SELF_IPI = "
			"%d); run it with `entrylab run irq`\n", EL_SYS_SELF_IPI);
		return EL_EXIT_SKIP;
	}
	/* One interrupt outside the region: warms the path, checks the service. */
	ret = el_syscall2(EL_SYS_SELF_IPI, 1, 0);
	if (ret != 0) {
		fprintf(stderr, "irq: EL_SYS_SELF_IPI failed with %ld: this guest kernel does not "
			"offer self-IPIs yet\n", ret);
		return EL_EXIT_SKIP;
	}

	t0 = el_now_ns();
	el_region_begin(count);
	while (done < count) {
		uint64_t b = count - done < batch ? count - done : batch;

		ret = el_syscall2(EL_SYS_SELF_IPI, (long)b, 0);
		if (ret != 0)
			break;
		done += b;
		calls++;
	}
	el_region_end();
	t1 = el_now_ns();

	if (ret != 0) {
		fprintf(stderr, "irq: EL_SYS_SELF_IPI(%llu) failed with %ld after %llu "
			"interrupts\n",
			(unsigned long long)batch, ret, (unsigned long long)done);
		return 1;
	}
	el_result(&bench, count, t1 - t0, "batch=%llu calls=%llu", (unsigned long long)batch,
		  (unsigned long long)calls);
	return 0;
}
