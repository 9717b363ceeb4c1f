/*
 * Unit tests of the clock arithmetic the guest kernel and the vDSO share
 * (guest-kernel/time/vclock.h, time_math.c): scaling, frequency
 * conversions, normalisation, and the seqcount read loops driven by fake
 * counters that play the concurrent writer.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "array_size.h"
#include "time_math.h"
#include "guest-kernel/time/vclock.h"

#define GHZ_MULT (1ull << 32) /* 1 tick per ns */

/* ---- fake counters --------------------------------------------------------- */

static uint64_t fake_tsc;
static unsigned fake_reads;
static void (*on_read)(unsigned nth);

static uint64_t fake_counter(void)
{
	fake_reads++;
	if (on_read)
		on_read(fake_reads);
	return fake_tsc;
}

static struct vvar_data vd;
static struct pvclock_vcpu_time_info pv;

static void reset(uint32_t mode)
{
	memset(&vd, 0, sizeof(vd));
	memset(&pv, 0, sizeof(pv));
	vd.clock_mode = mode;
	fake_tsc = 0;
	fake_reads = 0;
	on_read = NULL;
}

static bool read_clock(uint32_t clk, struct vclock_ts *ts)
{
	return vclock_gettime(&vd, &pv, clk, fake_counter, vclock_delta_branch, ts);
}

/* ---- scaling ---------------------------------------------------------------- */

Test(vclock, pvclock_scale_shifts_and_multiplies)
{
	cr_assert_eq(pvclock_scale(1000000000, 1u << 31, 1), 1000000000, "2^1 * 0.5 = 1");
	cr_assert_eq(pvclock_scale(1000000000, 1u << 31, 0), 500000000);
	cr_assert_eq(pvclock_scale(3000000000u, 0xaaaaaaab, -1), 1000000000, "3 GHz: / 2 * 2/3");
	cr_assert_eq(pvclock_scale(0, 0xffffffff, 5), 0);
	/* 128-bit product: a delta of years at 3 GHz still scales. */
	cr_assert_eq(pvclock_scale(3000000000ull * 86400 * 365, 0xaaaaaaab, -1) / 1000000000ull,
		     86400ull * 365);
}

Test(vclock, tsc_scale_is_128_bit)
{
	cr_assert_eq(vclock_tsc_scale(123456789, GHZ_MULT), 123456789);
	cr_assert_eq(vclock_tsc_scale(UINT64_MAX, GHZ_MULT), UINT64_MAX);
	cr_assert_eq(vclock_tsc_scale(1ull << 62, GHZ_MULT / 4), 1ull << 60);
}

Test(vclock, khz_to_mult_round_trips)
{
	static const uint64_t khz[] = {1, 1000, 999999, 1000000, 1000001, 2100000, 2596126,
				       2994375, 3999999, 5000000, 10000000};

	for (size_t i = 0; i < EL_ARRAY_SIZE(khz); i++) {
		uint64_t mult = tsc_khz_to_mult(khz[i]);
		uint64_t one_second = vclock_tsc_scale(khz[i] * 1000, mult);

		cr_assert_neq(mult, 0, "%lu kHz", khz[i]);
		cr_assert_eq(mult_to_tsc_khz(mult), khz[i], "%lu kHz round trip", khz[i]);
		/* A second of ticks is a second, to within a ppb-scale error. */
		cr_assert(one_second >= 999999990 && one_second <= 1000000010,
			  "%lu kHz: one second of ticks = %lu ns", khz[i], one_second);
	}
	cr_assert_eq(tsc_khz_to_mult(1000000), GHZ_MULT);
	cr_assert_neq(tsc_khz_to_mult(TSC_KHZ_MAX), 0, "1 THz: coarse, but usable");
	cr_assert_eq(tsc_khz_to_mult(0), 0);
	cr_assert_eq(tsc_khz_to_mult(TSC_KHZ_MAX + 1), 0);
	cr_assert_eq(mult_to_tsc_khz(0), 0);
	cr_assert_eq(mult_to_tsc_khz(1), 0, "4e15 kHz is out of range");
}

Test(vclock, pvclock_scale_as_mult)
{
	static const struct {
		uint32_t mul;
		int shift;
	} scales[] = {{0xaaaaaaab, -1}, {0x80000000, 1}, {0xc5b0c3a5, -2}, {0x9d3e2e5d, 0},
		      {0xfffffffe, 3}};

	for (size_t i = 0; i < EL_ARRAY_SIZE(scales); i++) {
		uint64_t mult = pvclock_to_mult(scales[i].mul, scales[i].shift);

		for (uint64_t delta = 1; delta < (1ull << 50); delta = delta * 7 + 3) {
			uint64_t a = pvclock_scale(delta, scales[i].mul, scales[i].shift);
			uint64_t b = vclock_tsc_scale(delta, mult);
			uint64_t diff = a > b ? a - b : b - a;

			/* pvclock drops the low delta bits a negative shift pushes out. */
			cr_assert_leq(diff, 1 + a / 1000000000, "scale %zu delta %lu: %lu vs %lu",
				      i, delta, a, b);
		}
	}
	cr_assert_eq(pvclock_to_mult(1, 32), 0);
	cr_assert_eq(pvclock_to_mult(1, -32), 0);
	cr_assert_eq(mult_to_tsc_khz(pvclock_to_mult(0xaaaaaaab, -1)), 3000000);
}

Test(vclock, cpuid_leaf15)
{
	cr_assert_eq(tsc_khz_from_leaf15(2, 176, 24000000), 2112000);
	cr_assert_eq(tsc_khz_from_leaf15(0, 176, 24000000), 0);
	cr_assert_eq(tsc_khz_from_leaf15(2, 176, 0), 0, "crystal unknown");
}

/* ---- normalisation and timespecs -------------------------------------------- */

Test(vclock, bases_normalise)
{
	struct vclock_base b = vclock_base_from_ns(5999999999ull);

	cr_assert(b.sec == 5 && b.nsec == 999999999);
	b = vclock_base_add(b, 1);
	cr_assert(b.sec == 6 && b.nsec == 0);
	b = vclock_base_add((struct vclock_base){1, 999999999}, 1999999999);
	cr_assert(b.sec == 3 && b.nsec == 999999998, "%lu.%09lu", b.sec, b.nsec);
}

Test(vclock, timespec_checks)
{
	cr_assert(timespec_valid(0, 0));
	cr_assert(timespec_valid(1, 999999999));
	cr_assert_not(timespec_valid(1, 1000000000));
	cr_assert_not(timespec_valid(-1, 0));
	cr_assert_not(timespec_valid(0, -1));
	cr_assert_eq(timespec_to_ns_sat(2, 5), 2000000005);
	cr_assert_eq(timespec_to_ns_sat(INT64_MAX, 999999999), UINT64_MAX);
	cr_assert_eq(timespec_to_ns_sat(18446744073, 709551615), UINT64_MAX);
	cr_assert_eq(timespec_to_ns_sat(18446744073, 709551614), UINT64_MAX - 1);
	cr_assert_eq(add_sat_u64(UINT64_MAX - 1, 2), UINT64_MAX);
}

/* ---- the cycle_last clamp ----------------------------------------------------- */

Test(vclock, clamp_variants_agree)
{
	static const uint64_t v[] = {0, 1, 2, 1000, UINT64_MAX / 2, UINT64_MAX - 1, UINT64_MAX};

	for (size_t i = 0; i < EL_ARRAY_SIZE(v); i++)
		for (size_t j = 0; j < EL_ARRAY_SIZE(v); j++) {
			uint64_t want = v[i] > v[j] ? v[i] - v[j] : 0;

			cr_assert_eq(vclock_delta_branch(v[i], v[j]), want);
			cr_assert_eq(vclock_delta_cmov(v[i], v[j]), want);
		}
}

Test(vclock, counters_run)
{
	/* Only that each variant executes here; their order is what the vDSO images measure. */
	cr_assert_neq(vclock_rdtsc_lfence() | vclock_rdtsc_lfence2() | vclock_rdtsc_none(), 0);
}

/* ---- TSC mode ------------------------------------------------------------------ */

Test(vclock, tsc_mode_adds_base)
{
	struct vclock_ts ts;

	reset(VCLOCK_TSC);
	vd.cycle_last = 1000;
	vd.mult = GHZ_MULT;
	vd.base[EL_CLOCK_MONOTONIC] = (struct vclock_base){5, 999999999};
	vd.base[EL_CLOCK_REALTIME] = (struct vclock_base){1764500000, 0};
	fake_tsc = 1500;
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert(ts.sec == 6 && ts.nsec == 499, "%lu.%09lu", ts.sec, ts.nsec);
	cr_assert(read_clock(EL_CLOCK_REALTIME, &ts));
	cr_assert(ts.sec == 1764500000 && ts.nsec == 500);
}

Test(vclock, tsc_mode_clamps_to_cycle_last)
{
	struct vclock_ts ts;

	reset(VCLOCK_TSC);
	vd.cycle_last = 1000;
	vd.mult = GHZ_MULT;
	vd.base[EL_CLOCK_MONOTONIC] = (struct vclock_base){7, 0};
	fake_tsc = 10; /* a TSC behind cycle_last: no time, never negative time */
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert(ts.sec == 7 && ts.nsec == 0);
	cr_assert(vclock_gettime(&vd, &pv, EL_CLOCK_MONOTONIC, fake_counter, vclock_delta_cmov,
				 &ts));
	cr_assert(ts.sec == 7 && ts.nsec == 0);
}

static void writer_mid_read(unsigned nth)
{
	if (nth == 1) {
		/* The kernel republished while we read: seq moved on, bases changed. */
		vd.seq += 2;
		vd.base[EL_CLOCK_MONOTONIC] = (struct vclock_base){100, 0};
	}
}

Test(vclock, seqcount_retries_after_a_write)
{
	struct vclock_ts ts;

	reset(VCLOCK_TSC);
	vd.mult = GHZ_MULT;
	vd.base[EL_CLOCK_MONOTONIC] = (struct vclock_base){1, 0};
	fake_tsc = 42;
	on_read = writer_mid_read;
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert_eq(fake_reads, 2, "one retry");
	cr_assert(ts.sec == 100 && ts.nsec == 42, "the new base: %lu.%09lu", ts.sec, ts.nsec);
}

Test(vclock, no_clock_source_falls_back)
{
	struct vclock_ts ts;

	reset(VCLOCK_NONE);
	cr_assert_not(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert_eq(fake_reads, 0);
}

/* ---- pvclock mode -------------------------------------------------------------- */

static void setup_pvclock(void)
{
	reset(VCLOCK_PVCLOCK);
	pv.version = 2;
	pv.tsc_timestamp = 3000;
	pv.system_time = 2000000000; /* 2 s since kvmclock 0 */
	pv.tsc_to_system_mul = 0xaaaaaaab;
	pv.tsc_shift = -1; /* 3 GHz */
	pv.flags = PVCLOCK_TSC_STABLE_BIT;
	vd.base[EL_CLOCK_REALTIME] = (struct vclock_base){1764500000, 900000000};
}

Test(vclock, pvclock_mode)
{
	struct vclock_ts ts;

	setup_pvclock();
	fake_tsc = 3000 + 3000000000ull; /* one second after the timestamp */
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert(ts.sec == 3 && ts.nsec == 0, "%lu.%09lu", ts.sec, ts.nsec);
	cr_assert(read_clock(EL_CLOCK_REALTIME, &ts));
	cr_assert(ts.sec == 1764500003 && ts.nsec == 900000000, "%lu.%09lu", ts.sec, ts.nsec);
}

static void kvm_mid_read(unsigned nth)
{
	if (nth == 1) {
		pv.version += 2;
		pv.system_time += 1000; /* KVM refreshed the page */
	}
}

Test(vclock, pvclock_version_retries)
{
	struct vclock_ts ts;

	setup_pvclock();
	fake_tsc = 3000;
	on_read = kvm_mid_read;
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &ts));
	cr_assert_eq(fake_reads, 2);
	cr_assert(ts.sec == 2 && ts.nsec == 1000, "%lu.%09lu", ts.sec, ts.nsec);
}

Test(vclock, pvclock_unstable_falls_back)
{
	struct vclock_ts ts;

	setup_pvclock();
	pv.flags = 0;
	cr_assert_not(read_clock(EL_CLOCK_MONOTONIC, &ts));
}

/* ---- clock ids -------------------------------------------------------------------- */

Test(vclock, clock_ids)
{
	static const uint32_t hres[] = {EL_CLOCK_REALTIME, EL_CLOCK_MONOTONIC,
					EL_CLOCK_MONOTONIC_RAW, EL_CLOCK_BOOTTIME, EL_CLOCK_TAI};
	static const uint32_t syscall_only[] = {EL_CLOCK_PROCESS_CPUTIME_ID,
						EL_CLOCK_THREAD_CPUTIME_ID, EL_CLOCK_REALTIME_ALARM,
						EL_CLOCK_BOOTTIME_ALARM, 10, 12, 15, 16, 1000,
						(uint32_t)-1, (uint32_t)-6, 0x80000000u};
	struct vclock_ts ts;

	reset(VCLOCK_TSC);
	vd.mult = GHZ_MULT;
	fake_tsc = 7;
	for (size_t i = 0; i < EL_ARRAY_SIZE(hres); i++) {
		cr_assert(read_clock(hres[i], &ts), "clock %u", hres[i]);
		cr_assert(vclock_getres(hres[i], &ts) && ts.sec == 0 && ts.nsec == 1);
	}
	for (size_t i = 0; i < EL_ARRAY_SIZE(syscall_only); i++) {
		cr_assert_not(read_clock(syscall_only[i], &ts), "clock %u", syscall_only[i]);
		cr_assert_not(vclock_getres(syscall_only[i], &ts), "clock %u", syscall_only[i]);
	}
}

Test(vclock, coarse_clocks_round_down_to_the_tick)
{
	struct vclock_ts ts, fine;

	reset(VCLOCK_TSC);
	vd.mult = GHZ_MULT;
	vd.base[EL_CLOCK_MONOTONIC] = vd.base[EL_CLOCK_MONOTONIC_COARSE] =
		(struct vclock_base){9, 0};
	fake_tsc = 12345678;
	cr_assert(read_clock(EL_CLOCK_MONOTONIC, &fine));
	cr_assert(read_clock(EL_CLOCK_MONOTONIC_COARSE, &ts));
	cr_assert(ts.sec == 9 && ts.nsec == 12000000, "%lu.%09lu", ts.sec, ts.nsec);
	cr_assert(ts.sec == fine.sec && ts.nsec <= fine.nsec &&
		  fine.nsec - ts.nsec < VCLOCK_COARSE_NS);
	cr_assert(vclock_getres(EL_CLOCK_REALTIME_COARSE, &ts) && ts.nsec == VCLOCK_COARSE_NS);
}

/* ---- the CMOS RTC's date --------------------------------------------------------- */

Test(vclock, unix_from_civil)
{
	uint64_t s = 1;

	cr_assert(unix_from_civil(1970, 1, 1, 0, 0, 0, &s) && s == 0);
	cr_assert(unix_from_civil(2000, 3, 1, 0, 0, 0, &s) && s == 951868800, "%lu", s);
	cr_assert(unix_from_civil(2024, 2, 29, 23, 59, 59, &s) && s == 1709251199, "%lu", s);
	cr_assert(unix_from_civil(2025, 11, 30, 12, 0, 0, &s) && s == 1764504000, "%lu", s);
	cr_assert(unix_from_civil(2100, 12, 31, 0, 0, 0, &s) && s == 4133894400, "%lu", s);
	cr_assert_not(unix_from_civil(2023, 2, 29, 0, 0, 0, &s), "not a leap year");
	cr_assert_not(unix_from_civil(2100, 2, 29, 0, 0, 0, &s), "centuries are not");
	cr_assert(unix_from_civil(2000, 2, 29, 0, 0, 0, &s), "but every 400th is");
	cr_assert_not(unix_from_civil(1969, 12, 31, 0, 0, 0, &s));
	cr_assert_not(unix_from_civil(2025, 13, 1, 0, 0, 0, &s));
	cr_assert_not(unix_from_civil(2025, 4, 31, 0, 0, 0, &s));
	cr_assert_not(unix_from_civil(2025, 4, 1, 24, 0, 0, &s));
	cr_assert_eq(rtc_field(0x59, true), 59);
	cr_assert_eq(rtc_field(0x59, false), 0x59);
}
