/*
 * How long one boot of a request should take (request.h): boot plus the
 * benchmark's iterations times a cost per iteration, from a table measured
 * on the machines entrylab runs on, natively (KVM on a current x86 host) and
 * in the nested runner (QEMU TCG with nested SVM, where everything is one
 * to three orders slower).  Rough by design: it sizes timeouts and says
 * what a matrix will cost; it is never reported as a measurement.
 */
#include <math.h>
#include <string.h>

#include "array_size.h"
#include "request.h"

/* Seconds from VM creation to the program's first instruction. */
#define BOOT_NATIVE_S 0.2
#define BOOT_NESTED_S 0.6
/*
 * --guest linux (Debian's 6.1 vmlinux to entrylab's /init): in the nested
 * runner on the 2-core CI VM 3.8-13 s (boot_ms, quiet host to busy), plus
 * ~2 s to send the vmlinux; natively a few hundred ms (Firecracker's
 * budget for the same step is 125 ms).
 */
#define BOOT_LINUX_NATIVE_S 1.0
#define BOOT_LINUX_NESTED_S 15.0
/* Derived timeouts: this many times the estimate, plus this much. */
#define TIMEOUT_FACTOR  5.0
#define TIMEOUT_SLACK_S 60.0

/*
 * ns per iteration.  nested: region time of `entrylab run` in the nested
 * runner on a 2-core cloud VM (pagefault 1G 10: 3.0 us per fault, getpid
 * 200000: 0.31 us, irq 100000: 350 us per interrupt, ...).  native: the
 * seeds' figures where they give one (000: 8.4 s / 26.2M faults; 002:
 * 6M lseeks/s; 004: ~400 ns per emulated vsyscall), else typical KVM costs.
 */
static const struct {
	const char *bench;
	double native_ns, nested_ns;
} cost[] = {
	{"pagefault", 320, 3000}, {"lseek", 170, 260},        {"getpid", 100, 320},
	{"gettid", 100, 320},     {"clock_gettime", 30, 190}, {"gettimeofday", 30, 100},
	{"time", 10, 100},        {"getcpu", 10, 60},         {"vsyscall", 500, 2700},
	{"irq", 2000, 350000},
};

void request_estimate(const struct el_run_request *r, bool nested, struct el_estimate *e)
{
	const struct el_bench *b = r->bench ? bench_find(r->bench) : NULL;
	struct el_bench_iter it = {0};

	memset(e, 0, sizeof(*e));
	if (r->guest == EL_GUEST_LINUX)
		e->boot_s = nested ? BOOT_LINUX_NESTED_S : BOOT_LINUX_NATIVE_S;
	else
		e->boot_s = nested ? BOOT_NESTED_S : BOOT_NATIVE_S;
	e->run_s = e->boot_s;
	if (!b)
		return;
	bench_iterations(b, r->args, r->nargs, &it);
	/* -n replaces the count; after request_programs it is the declared count. */
	e->iterations = r->iterations && b->iter_arg >= 0 ? r->iterations : it.iterations;
	e->unit = b->unit;
	for (size_t i = 0; i < EL_ARRAY_SIZE(cost); i++) {
		if (strcmp(cost[i].bench, b->name))
			continue;
		e->per_iter_ns = nested ? cost[i].nested_ns : cost[i].native_ns;
		e->known = e->iterations > 0;
		e->run_s += (double)e->iterations * e->per_iter_ns / 1e9;
	}
}

double request_estimate_timeout(const struct el_estimate *e)
{
	double t = ceil((TIMEOUT_FACTOR * e->run_s + TIMEOUT_SLACK_S) / 10.0) * 10.0;

	return e->known && t > EL_DEFAULT_TIMEOUT ? t : EL_DEFAULT_TIMEOUT;
}
