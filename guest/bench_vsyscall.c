/*
 * vsyscall: calls into the legacy vsyscall page at 0xffffffffff600000
 * (seed 004): native code, or trapped and emulated by the kernel, by mode.
 * Under vsyscall=none the first call ends the process as SIGSEGV would.
 */
#include <stddef.h>
#include <sys/time.h>
#include <time.h>

#include "lib/bench.h"
#include "lib/region.h"

#define VSYSCALL_GETTIMEOFDAY 0xffffffffff600000ul
#define VSYSCALL_TIME 0xffffffffff600400ul
#define VSYSCALL_GETCPU 0xffffffffff600800ul

static const struct el_bench bench = {
	.name = "vsyscall",
	.synopsis = "[ITERATIONS] [gettimeofday|time|getcpu]",
	.help = "  ITERATIONS  calls in the measured loop (default 10000)\n"
		"  ENTRY       which entry point: gettimeofday (0x...600000, default),\n"
		"              time (0x...600400), getcpu (0x...600800)\n",
	.max_args = 2,
};

enum { GTOD, TIME, GETCPU };
static const char *const entries[] = { "gettimeofday", "time", "getcpu", NULL };

typedef long (*gtod_fn)(struct timeval *, void *);
typedef long (*time_fn)(long *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);

int main(int argc, char **argv)
{
	/* volatile: the compiler must not assume anything about these addresses. */
	gtod_fn volatile gtod = (gtod_fn)VSYSCALL_GETTIMEOFDAY;
	time_fn volatile vtime = (time_fn)VSYSCALL_TIME;
	getcpu_fn volatile getcpu = (getcpu_fn)VSYSCALL_GETCPU;
	uint64_t n, errors = 0, check = 0, t0, t1;
	struct timeval tv = { 0, 0 };
	unsigned cpu = 0, node = 0;
	int which;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 10000);
	which = el_arg_word(&bench, argc, argv, 2, entries, GTOD);

	t0 = el_now_ns();
	el_region_begin(n);
	if (which == GTOD) {
		gtod_fn fn = gtod;

		for (uint64_t i = 0; i < n; i++) {
			errors += fn(&tv, NULL) != 0;
			check = (uint64_t)tv.tv_sec;
		}
	} else if (which == TIME) {
		time_fn fn = vtime;

		for (uint64_t i = 0; i < n; i++) {
			long t = fn(NULL);

			errors += t <= 0;
			check = (uint64_t)t;
		}
	} else {
		getcpu_fn fn = getcpu;

		for (uint64_t i = 0; i < n; i++) {
			errors += fn(&cpu, &node, NULL) != 0;
			check += cpu;
		}
	}
	el_region_end();
	t1 = el_now_ns();

	el_result(&bench, n, t1 - t0, "entry=%s errors=%llu check=%llu", entries[which],
		  (unsigned long long)errors, (unsigned long long)check);
	return errors != 0;
}
