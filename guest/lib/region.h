/*
 * Region markers: bracket a benchmark's measured loop.
 *
 * The entrylab guest kernel starts its counters on el_region_begin() and
 * stops them on el_region_end() (EL_SYS_REGION, include/entrylab/abi.h).
 * Both are a bare SYSCALL instruction inlined at the call site, so nothing
 * but the marker's own kernel entry lies between the counters and the loop.
 * On a Linux host the syscall answers -ENOSYS: the program says so once on
 * stderr and runs unmarked.
 */
#ifndef EL_GUEST_REGION_H
#define EL_GUEST_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include <entrylab/abi.h>

#include "sys.h"

/* Slow path, out of line: records the state, reports a failure once. */
void el_region_failed(long ret, int op);

static inline long el_region_syscall(long op, uint64_t iterations)
{
	/* el_syscall2 clobbers "memory": no load or store of the loop crosses it. */
	return el_syscall2(EL_SYS_REGION, op, (long)iterations);
}

static inline void el_region_begin(uint64_t iterations)
{
	long ret = el_region_syscall(EL_REGION_BEGIN, iterations);

	if (__builtin_expect(ret != 0, 0))
		el_region_failed(ret, EL_REGION_BEGIN);
}

static inline void el_region_end(void)
{
	long ret = el_region_syscall(EL_REGION_END, 0);

	if (__builtin_expect(ret != 0, 0))
		el_region_failed(ret, EL_REGION_END);
}

/* True when the last begin and end both succeeded (for the result line). */
bool el_region_marked(void);

/*
 * True when running under the entrylab kernel: EL_REGION_QUERY answers
 * anything but -ENOSYS.  Cached; costs one syscall the first time.  Programs
 * use it to keep Linux-only calls (unlink, prctl) off the entrylab kernel.
 */
bool el_entrylab(void);

/* "running unmarked" on stderr, once per program (also said by a failing marker). */
void el_region_warn_unmarked(void);

#endif
