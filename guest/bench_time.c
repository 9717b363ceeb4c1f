/*
 * time: time(NULL) in a loop (seed 004).  By default through __vdso_time
 * itself (musl's time() goes to clock_gettime).
 */
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "time",
	.synopsis = "[ITERATIONS] [libc|vdso|syscall]",
	.help = "  ITERATIONS  calls in the measured loop (default 100000)\n"
		"  PATH        vdso: __vdso_time (default); libc: musl's time (via\n"
		"              clock_gettime); syscall: the raw syscall\n",
	.max_args = 2,
};

typedef time_t (*time_fn)(time_t *);

int main(int argc, char **argv)
{
	uint64_t n, backwards = 0, t0, t1;
	time_t t = 0, last = 0;
	enum el_path path;
	time_fn fn;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 100000);
	path = el_arg_word(&bench, argc, argv, 2, el_path_names, EL_PATH_VDSO);
	fn = (time_fn)el_path_resolve(&bench, &path, "__vdso_time");

	t0 = el_now_ns();
	el_region_begin(n);
	if (path == EL_PATH_LIBC)
		for (uint64_t i = 0; i < n; i++, last = t)
			backwards += (t = time(NULL)) < last;
	else if (path == EL_PATH_VDSO)
		for (uint64_t i = 0; i < n; i++, last = t)
			backwards += (t = fn(NULL)) < last;
	else
		for (uint64_t i = 0; i < n; i++, last = t)
			backwards += (t = el_syscall1(SYS_time, 0)) < last;
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "path=%s backwards=%llu last=%lld", el_path_names[path],
		  (unsigned long long)backwards, (long long)last);
	return 0;
}
