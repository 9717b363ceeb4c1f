/*
 * vclock_read_fast (guest-kernel/time/vclock.h), the straight-line path of
 * the vDSO's and the kernel's REALTIME/MONOTONIC reads: it must give what
 * the general path (vclock_gettime) gives whenever it answers, and refuse
 * (so the caller takes the general path) whenever one pass cannot answer:
 * a writer in the seqcount, or a clock source other than the TSC (pvclock
 * and none take the general path, out of line).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "array_size.h"
#include "guest-kernel/time/vclock.h"

static uint64_t tsc;
static unsigned reads;
static void (*during_read)(void);
static struct vvar_data vd;
static struct pvclock_vcpu_time_info pv;

static uint64_t counter(void)
{
	reads++;
	if (during_read)
		during_read();
	return tsc;
}

static void setup(uint32_t mode)
{
	memset(&vd, 0, sizeof(vd));
	memset(&pv, 0, sizeof(pv));
	vd.clock_mode = mode;
	vd.cycle_last = 1000;
	vd.mult = 3ull << 31; /* 1.5 ns per tick */
	vd.base[EL_CLOCK_MONOTONIC] = (struct vclock_base){5, 999999000};
	vd.base[EL_CLOCK_REALTIME] = (struct vclock_base){1764500000, 123456789};
	pv.version = 4;
	pv.tsc_timestamp = 500;
	pv.system_time = 7000000000ull;
	pv.tsc_to_system_mul = 0xaaaaaaab;
	pv.tsc_shift = -1;
	pv.flags = PVCLOCK_TSC_STABLE_BIT;
	tsc = 0;
	reads = 0;
	during_read = NULL;
}

static bool fast(uint32_t clk, struct vclock_ts *ts, vclock_delta_fn *delta)
{
	return vclock_read_fast(&vd, clk, counter, delta, ts);
}

static void expect_same_as_general(uint32_t clk, vclock_delta_fn *delta)
{
	struct vclock_ts f, g;

	cr_assert(fast(clk, &f, delta), "clock %u: the fast path refused", clk);
	cr_assert(vclock_gettime(&vd, &pv, clk, counter, delta, &g));
	cr_expect(f.sec == g.sec && f.nsec == g.nsec, "clock %u: fast %lu.%09lu, general %lu.%09lu",
		  clk, f.sec, f.nsec, g.sec, g.nsec);
	cr_expect_lt(f.nsec, NSEC_PER_SEC);
}

Test(vclock_fast, agrees_with_the_general_path)
{
	static const uint64_t tscs[] = {0, 999, 1000, 1001, 123456789, 1ull << 40, ~0ull >> 8};
	for (unsigned i = 0; i < EL_ARRAY_SIZE(tscs); i++)
		for (uint32_t clk = EL_CLOCK_REALTIME; clk <= EL_CLOCK_MONOTONIC; clk++) {
			setup(VCLOCK_TSC);
			tsc = tscs[i];
			expect_same_as_general(clk, vclock_delta_branch);
			expect_same_as_general(clk, vclock_delta_cmov);
		}
}

Test(vclock_fast, one_counter_read)
{
	struct vclock_ts ts;

	setup(VCLOCK_TSC);
	tsc = 5000; /* 4000 ticks after cycle_last: 6000 ns */
	cr_assert(fast(EL_CLOCK_MONOTONIC, &ts, vclock_delta_branch));
	cr_expect_eq(reads, 1);
	cr_expect(ts.sec == 6 && ts.nsec == 5000, "%lu.%09lu", ts.sec, ts.nsec);
}

static void kernel_writes(void)
{
	vd.seq += 2;
}

Test(vclock_fast, refuses_what_one_pass_cannot_answer)
{
	struct vclock_ts ts;

	setup(VCLOCK_TSC);
	vd.seq = 3; /* the kernel is rewriting the page */
	cr_expect_not(fast(EL_CLOCK_MONOTONIC, &ts, vclock_delta_branch));
	cr_expect_eq(reads, 0, "no counter read while seq is odd");

	setup(VCLOCK_TSC);
	during_read = kernel_writes;
	cr_expect_not(fast(EL_CLOCK_MONOTONIC, &ts, vclock_delta_branch), "seq changed");

	setup(VCLOCK_NONE);
	cr_expect_not(fast(EL_CLOCK_REALTIME, &ts, vclock_delta_branch), "no clock source");

	setup(VCLOCK_PVCLOCK);
	cr_expect_not(fast(EL_CLOCK_REALTIME, &ts, vclock_delta_branch), "pvclock: general path");
	cr_expect(vclock_gettime(&vd, &pv, EL_CLOCK_REALTIME, counter, vclock_delta_branch, &ts),
		  "which answers it");
}
