/*
 * Region markers: bracket a benchmark's measured loop.
 *
 * The entrylab guest kernel starts its counters on el_region_begin() and
 * stops them on el_region_end() (EL_SYS_REGION, include/entrylab/abi.h).
 * Both are a bare SYSCALL instruction inlined at the call site, so nothing
 * but the marker's own kernel entry lies between the counters and the loop.
 *
 * Each marker SYSCALL also records its address in the program's ELF
 * section EL_REGION_SITES_SECTION, so a tracer finds the markers in the file
 * (include/entrylab/linux_init.h, "The marker sites").  The record costs the
 * running program nothing: the section is not loaded, no address moves.
 * A static-pie program is loaded elsewhere than its link-time addresses by
 * a bias the tracer must add.
 *
 * Linux answers the marker syscall -ENOSYS and the out-of-line slow path
 * takes over: under entrylab's /init for Linux (guest/linux/; the region
 * page of linux_init.h, named in the environment and mapped before main)
 * it does the region itself (region_linux.c); elsewhere the program says
 * so once on stderr and runs unmarked.
 */
#ifndef EL_GUEST_REGION_H
#define EL_GUEST_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include <entrylab/abi.h>
#include <entrylab/linux_init.h>

#include "sys.h"

/* Slow path, out of line: a region on Linux, or the failure, said once. */
void el_region_failed(long ret, int op, uint64_t iterations);

/*
 * The marker SYSCALL (the same registers as el_syscall2) and its
 * el_region_site record; op must be a constant (the "i" constraint).
 */
#define EL_REGION_SITE_SYSCALL(ret, op, iterations)                                         \
	__asm__ volatile("1:\tsyscall\n\t"                                                 \
			 ".pushsection " EL_REGION_SITES_SECTION ",\"\",@progbits\n\t"     \
			 ".balign 8\n\t"                                                   \
			 ".quad 1b, %c[site_op]\n\t"                                       \
			 ".popsection"                                                     \
			 : "=a"(ret)                                                       \
			 : "0"((long)EL_SYS_REGION), "D"((long)(op)), "S"((long)(iterations)), \
			   [site_op] "i"(op)                                               \
			 : "rcx", "r11", "memory")

static inline __attribute__((always_inline)) void el_region_begin(uint64_t iterations)
{
	long ret;

	/* "memory" clobber: no load or store of the loop crosses the marker. */
	EL_REGION_SITE_SYSCALL(ret, EL_REGION_BEGIN, iterations);
	if (__builtin_expect(ret != 0, 0))
		el_region_failed(ret, EL_REGION_BEGIN, iterations);
}

static inline __attribute__((always_inline)) void el_region_end(void)
{
	long ret;

	EL_REGION_SITE_SYSCALL(ret, EL_REGION_END, 0);
	if (__builtin_expect(ret != 0, 0))
		el_region_failed(ret, EL_REGION_END, 0);
}

/*
 * True when the last begin and end both succeeded (for the result line):
 * under the entrylab kernel, or on Linux through the region page.
 */
bool el_region_marked(void);

/*
 * True when running under the entrylab kernel: EL_REGION_QUERY answers
 * anything but -ENOSYS.  Cached; costs one syscall the first time.  Programs
 * use it to keep Linux-only calls (unlink, prctl) off the entrylab kernel.
 */
bool el_entrylab(void);

/*
 * "running unmarked" on stderr, once per program (also said by a failing
 * marker); nothing on Linux when the region page makes the markers work.
 */
void el_region_warn_unmarked(void);

/*
 * The region page of linux_init.h: maps it when EL_LINUX_ENV_REGION names
 * one (and notes the perf group of EL_LINUX_ENV_PERF).  Runs before main;
 * entrylab's /init calls it again after it set the variables for its own
 * marker calibration.  0 when the page is mapped (now or before), -1 when
 * the environment names none or it cannot be mapped (said on stderr).
 */
int el_region_linux_attach(void);

#endif
