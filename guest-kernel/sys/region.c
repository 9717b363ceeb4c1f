/*
 * EL_SYS_REGION.  BEGIN: the hypercall first (an exit the VMM counts from),
 * then the PMU is programmed and zeroed and the region counters reset, the
 * TSC read comes next, fenced so no earlier work leaks into the region, and
 * the PMU's enabling write is the very last thing.  END mirrors it: the
 * PMU's disabling write first, then the TSC, then the counts, the counter
 * readings and the hypercall.  So the PMU counts a subset of the TSC's
 * window (which, with events requested, includes the enabling and disabling
 * WRMSRs, each an exit to KVM); what the PMU counts besides the program's
 * loop (the rest of this syscall's return, the next one's entry) is the
 * markers' cost, whose in-kernel part pmu_init() measures at boot.  With no
 * event requested the PMU hooks touch no MSR.  The region counters
 * (percpu.h) increment on every entry; END's own SYSCALL entry is taken off
 * the syscall count.
 */
#include "arch/x86_64/io.h"
#include "arch/x86_64/percpu.h"
#include "pmu/pmu.h"
#include "sys/errno.h"
#include "sys/region.h"
#include "proc/timer.h"
#include "sys/syscalls.h"
#include "time/time.h"

static struct el_region region;
static bool begun;

/*
 * The hypercall OUT of a marker, at a global label: `entrylab trace` finds
 * el_region_begin_out and el_region_end_out in the kernel ELF and counts
 * what runs between them under QEMU (harness/trace/eltrace.c).
 */
#define REGION_MARK_OUT(label, nr)                                                         \
	__asm__ __volatile__(".globl " label "\n" label ":\n\toutl %%eax, %%dx"              \
			     : : "a"(0), "d"(EL_PORT_HCALL + (nr)) : "memory")

static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static long region_begin(uint64_t iterations)
{
	REGION_MARK_OUT("el_region_begin_out", EL_HC_REGION_BEGIN);
	timer_region(true);
	pmu_region_prepare();
	region = (struct el_region){.iterations = iterations, .tsc_khz = time_tsc_khz()};
	cpu0.nr_syscalls = 0;
	cpu0.nr_page_faults = 0;
	cpu0.nr_interrupts = 0;
	begun = true;
	region.tsc_begin = rdtsc_ordered();
	pmu_region_start();
	return 0;
}

static long region_end(void)
{
	uint64_t tsc;

	pmu_region_stop();
	tsc = rdtsc_ordered();
	if (!begun)
		return -EINVAL;
	region.tsc_end = tsc;
	region.syscalls = cpu0.nr_syscalls - 1;
	region.page_faults = cpu0.nr_page_faults;
	region.interrupts = cpu0.nr_interrupts;
	region.valid = 1;
	begun = false;
	pmu_region_read();
	timer_region(false);
	REGION_MARK_OUT("el_region_end_out", EL_HC_REGION_END);
	return 0;
}

SYSCALL(el_region)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 == EL_REGION_QUERY)
		return 0;
	if (a0 == EL_REGION_BEGIN)
		return region_begin(a1);
	if (a0 == EL_REGION_END)
		return region_end();
	return -EINVAL;
}

const struct el_region *region_result(void)
{
	return &region;
}
