/*
 * gettimeofday: gettimeofday() in a loop (seed 004).  By default through
 * __vdso_gettimeofday itself (musl's gettimeofday goes to clock_gettime).
 */
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "gettimeofday",
	.synopsis = "[ITERATIONS] [libc|vdso|syscall]",
	.help = "  ITERATIONS  calls in the measured loop (default 100000)\n"
		"  PATH        vdso: __vdso_gettimeofday (default); libc: musl's gettimeofday\n"
		"              (via clock_gettime); syscall: the raw syscall\n",
	.max_args = 2,
};

typedef int (*gtod_fn)(struct timeval *, void *);

#define STEP(call)                                                                        \
	do {                                                                              \
		call;                                                                     \
		backwards += tv.tv_sec < last.tv_sec ||                                   \
			     (tv.tv_sec == last.tv_sec && tv.tv_usec < last.tv_usec);      \
		last = tv;                                                                \
	} while (0)

int main(int argc, char **argv)
{
	struct timeval tv = { 0, 0 }, last = { 0, 0 };
	uint64_t n, backwards = 0, t0, t1;
	enum el_path path;
	gtod_fn fn;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 100000);
	path = el_arg_word(&bench, argc, argv, 2, el_path_names, EL_PATH_VDSO);
	fn = (gtod_fn)el_path_resolve(&bench, &path, "__vdso_gettimeofday");

	t0 = el_now_ns();
	el_region_begin(n);
	if (path == EL_PATH_LIBC)
		for (uint64_t i = 0; i < n; i++)
			STEP(gettimeofday(&tv, NULL));
	else if (path == EL_PATH_VDSO)
		for (uint64_t i = 0; i < n; i++)
			STEP(fn(&tv, NULL));
	else
		for (uint64_t i = 0; i < n; i++)
			STEP(el_syscall2(SYS_gettimeofday, (long)&tv, 0));
	el_region_end();
	t1 = el_now_ns();

	/* Realtime may be stepped: backwards is reported, not a failure. */
	el_result(&bench, n, t1 - t0, "path=%s backwards=%llu last=%lld.%06ld",
		  el_path_names[path], (unsigned long long)backwards, (long long)last.tv_sec,
		  (long)last.tv_usec);
	return 0;
}
