/*
 * getcpu: which CPU am I on, in a loop (seed 004).  By default through
 * musl's sched_getcpu, which calls __vdso_getcpu when there is a vDSO.
 */
#include <sched.h>
#include <stddef.h>
#include <sys/syscall.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "getcpu",
	.synopsis = "[ITERATIONS] [libc|vdso|syscall]",
	.help = "  ITERATIONS  calls in the measured loop (default 100000)\n"
		"  PATH        libc: musl's sched_getcpu (vDSO when present; default);\n"
		"              vdso: __vdso_getcpu directly; syscall: the raw syscall\n",
	.max_args = 2,
};

typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

int main(int argc, char **argv)
{
	uint64_t n, errors = 0, cpusum = 0, t0, t1;
	unsigned cpu = 0, node = 0;
	enum el_path path;
	getcpu_fn fn;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 100000);
	path = el_arg_word(&bench, argc, argv, 2, el_path_names, EL_PATH_LIBC);
	fn = (getcpu_fn)el_path_resolve(&bench, &path, "__vdso_getcpu");

	t0 = el_now_ns();
	el_region_begin(n);
	if (path == EL_PATH_LIBC) {
		for (uint64_t i = 0; i < n; i++) {
			int c = sched_getcpu();

			errors += c < 0;
			cpusum += (unsigned)c;
		}
	} else if (path == EL_PATH_VDSO) {
		for (uint64_t i = 0; i < n; i++) {
			errors += fn(&cpu, &node, NULL) != 0;
			cpusum += cpu;
		}
	} else {
		for (uint64_t i = 0; i < n; i++) {
			errors += el_syscall3(SYS_getcpu, (long)&cpu, (long)&node, 0) != 0;
			cpusum += cpu;
		}
	}
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "path=%s errors=%llu cpusum=%llu", el_path_names[path],
		  (unsigned long long)errors, (unsigned long long)cpusum);
	return errors != 0;
}
