/*
 * Pure time arithmetic (time_math.h): no kernel headers, no library calls,
 * so the host unit tests compile this very file.  No 128-bit division
 * either: the kernel links without libgcc.
 */
#include "time_math.h"

/* 1 GHz in kHz, as 32.32 fixed point: the dividend of every kHz <-> mult conversion. */
#define GHZ_FIXED (1000000ull << VCLOCK_TSC_SHIFT)

_Static_assert(VCLOCK_TSC_SHIFT == 32, "the conversions below assume 32.32 fixed point");

/* Both directions are the same division: mult = 2^32 * 1e6 / kHz, kHz = 2^32 * 1e6 / mult. */
static uint64_t div_round(uint64_t num, uint64_t den)
{
	return (num + den / 2) / den;
}

uint64_t tsc_khz_to_mult(uint64_t tsc_khz)
{
	if (tsc_khz == 0 || tsc_khz > TSC_KHZ_MAX)
		return 0;
	return div_round(GHZ_FIXED, tsc_khz);
}

uint64_t mult_to_tsc_khz(uint64_t mult)
{
	uint64_t khz;

	if (mult == 0)
		return 0;
	khz = div_round(GHZ_FIXED, mult);
	return khz > TSC_KHZ_MAX ? 0 : khz;
}

uint64_t pvclock_to_mult(uint32_t mul, int shift)
{
	/* pvclock: ns = (delta << shift) * mul >> 32, so mult = mul << shift. */
	if (shift <= -32 || shift >= 32)
		return 0;
	return shift < 0 ? (uint64_t)mul >> -shift : (uint64_t)mul << shift;
}

uint64_t tsc_khz_from_leaf15(uint32_t eax, uint32_t ebx, uint32_t ecx)
{
	if (eax == 0 || ebx == 0 || ecx == 0)
		return 0;
	return (uint64_t)ecx * ebx / eax / 1000;
}

struct vclock_base vclock_base_from_ns(uint64_t ns)
{
	return (struct vclock_base){.sec = ns / NSEC_PER_SEC, .nsec = ns % NSEC_PER_SEC};
}

struct vclock_base vclock_base_add(struct vclock_base base, uint64_t ns)
{
	struct vclock_base d = vclock_base_from_ns(ns);

	base.sec += d.sec;
	base.nsec += d.nsec;
	if (base.nsec >= NSEC_PER_SEC) {
		base.nsec -= NSEC_PER_SEC;
		base.sec++;
	}
	return base;
}

bool timespec_valid(int64_t sec, int64_t nsec)
{
	return sec >= 0 && nsec >= 0 && nsec < (int64_t)NSEC_PER_SEC;
}

uint64_t add_sat_u64(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t timespec_to_ns_sat(int64_t sec, int64_t nsec)
{
	if ((uint64_t)sec > UINT64_MAX / NSEC_PER_SEC)
		return UINT64_MAX;
	return add_sat_u64((uint64_t)sec * NSEC_PER_SEC, (uint64_t)nsec);
}

unsigned rtc_field(uint8_t v, bool bcd)
{
	return bcd ? (v >> 4) * 10u + (v & 0xf) : v;
}

bool unix_from_civil(unsigned year, unsigned mon, unsigned day, unsigned hour, unsigned min,
		     unsigned sec, uint64_t *out)
{
	/* Days before each month in a common year. */
	static const uint16_t before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
	uint64_t y = year - 1, days;
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	static const uint8_t mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (year < 1970 || year > 9999 || mon < 1 || mon > 12 || day < 1 ||
	    day > mdays[mon - 1] || (mon == 2 && day == 29 && !leap) || hour > 23 || min > 59 ||
	    sec > 60)
		return false;
	/* Days from 0001-01-01 to the start of year, minus those to 1970-01-01 (719162). */
	days = y * 365 + y / 4 - y / 100 + y / 400 - 719162;
	days += before[mon - 1] + (mon > 2 && leap) + day - 1;
	*out = ((days * 24 + hour) * 60 + min) * 60 + sec;
	return true;
}
