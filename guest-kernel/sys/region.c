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
 *
 * Whole scope (el.region=whole, abi.h enum el_region_scope): the kernel
 * runs the same BEGIN and END itself, so the same OUTs at the same labels
 * bracket it: BEGIN as the last thing before init's first return to user
 * mode, END as the first thing once init exited (region_whole_begin/_end,
 * from proc/process.c).  In between the markers answer 0 and do nothing,
 * each still a syscall the region counts (none is taken off), iterations
 * are 0, and the timer is not held off (proc/timer.c).
 *
 * The marked path keeps its instructions whatever the scope: BEGIN tests
 * markers_off before its OUT (outside the window `entrylab trace` counts),
 * and END, inside that window, is matched against the variable end_op and
 * takes end_own_syscalls off, where a test would have added instructions.
 */
#include "arch/x86_64/io.h"
#include "arch/x86_64/percpu.h"
#include "config.h"
#include "pmu/pmu.h"
#include "sys/errno.h"
#include "sys/region.h"
#include "proc/timer.h"
#include "sys/syscalls.h"
#include "time/time.h"

static struct el_region region;
static bool begun;

/* Whole scope, once begun: BEGIN and END from the program answer 0. */
static bool markers_off;
/* The op END is, EL_REGION_QUERY while markers_off (QUERY is answered first). */
static uint64_t end_op = EL_REGION_END;
/* END's own SYSCALL entry, in the count when END is the program's marker. */
static uint64_t end_own_syscalls = 1;

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
	region.syscalls = cpu0.nr_syscalls - end_own_syscalls;
	region.page_faults = cpu0.nr_page_faults;
	region.interrupts = cpu0.nr_interrupts;
	region.valid = 1;
	begun = false;
	pmu_region_read();
	timer_region(false);
	REGION_MARK_OUT("el_region_end_out", EL_HC_REGION_END);
	return 0;
}

/*
 * Never inlined nor cloned: the OUT labels above must exist once, and
 * region_whole_begin/_end call this too.
 */
__attribute__((noipa)) SYSCALL_DEFINE2(el_region, uint64_t, op, uint64_t, arg)
{
	if (op == EL_REGION_QUERY)
		return 0;
	if (op == EL_REGION_BEGIN)
		return markers_off ? 0 : region_begin(arg);
	if (op == end_op)
		return region_end();
	if (op == EL_REGION_END)
		return 0; /* markers_off */
	return -EINVAL;
}

enum el_region_scope region_scope(void)
{
	return (enum el_region_scope)kernel_cmdline.region_scope;
}

void region_whole_begin(void)
{
	if (region_scope() != EL_REGION_SCOPE_WHOLE)
		return;
	end_own_syscalls = 0;
	sys_el_region(EL_REGION_BEGIN, 0, 0, 0, 0, 0);
	markers_off = true;
	end_op = EL_REGION_QUERY;
}

void region_whole_end(void)
{
	if (!markers_off)
		return;
	markers_off = false;
	end_op = EL_REGION_END;
	sys_el_region(EL_REGION_END, 0, 0, 0, 0, 0);
}

const struct el_region *region_result(void)
{
	return &region;
}
