/*
 * clock_gettime: clock_gettime(CLOCK_MONOTONIC) in a loop (seed 004).  By
 * default through musl, which calls __vdso_clock_gettime when the kernel
 * maps a vDSO and makes the syscall otherwise.
 */
#include <sys/syscall.h>
#include <time.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "clock_gettime",
	.synopsis = "[ITERATIONS] [libc|vdso|syscall]",
	.help = "  ITERATIONS  calls in the measured loop (default 100000)\n"
		"  PATH        libc: musl's clock_gettime (default); vdso: __vdso_clock_gettime\n"
		"              directly; syscall: the raw syscall\n",
	.max_args = 2,
};

typedef int (*cg_fn)(clockid_t, struct timespec *);

/* Counts steps backwards: a sanity value, and the loop's visible result. */
#define STEP(call)                                                                        \
	do {                                                                              \
		call;                                                                     \
		backwards += ts.tv_sec < last.tv_sec ||                                   \
			     (ts.tv_sec == last.tv_sec && ts.tv_nsec < last.tv_nsec);      \
		last = ts;                                                                \
	} while (0)

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 0 }, last = { 0, 0 };
	uint64_t n, backwards = 0, t0, t1;
	enum el_path path;
	cg_fn fn;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 100000);
	path = el_arg_word(&bench, argc, argv, 2, el_path_names, EL_PATH_LIBC);
	fn = (cg_fn)el_path_resolve(&bench, &path, "__vdso_clock_gettime");

	t0 = el_now_ns();
	el_region_begin(n);
	if (path == EL_PATH_LIBC)
		for (uint64_t i = 0; i < n; i++)
			STEP(clock_gettime(CLOCK_MONOTONIC, &ts));
	else if (path == EL_PATH_VDSO)
		for (uint64_t i = 0; i < n; i++)
			STEP(fn(CLOCK_MONOTONIC, &ts));
	else
		for (uint64_t i = 0; i < n; i++)
			STEP(el_syscall2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts));
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "path=%s backwards=%llu last=%lld.%09ld",
		  el_path_names[path], (unsigned long long)backwards, (long long)last.tv_sec,
		  last.tv_nsec);
	return backwards != 0;
}
