/*
 * Pure time arithmetic the kernel needs at boot and in syscalls: clock
 * scales from frequencies, timespec checks and conversions.  Freestanding
 * and hosted alike (the unit tests build it on the host).
 */
#ifndef EL_TIME_MATH_H
#define EL_TIME_MATH_H

#include <stdbool.h>
#include <stdint.h>

#include "entrylab/vvar.h"

/* Frequencies the clock code accepts: 1 kHz .. 1 THz. */
#define TSC_KHZ_MAX 1000000000ull

/* VCLOCK_TSC mult (ns per tick, 32.32) for a counter of tsc_khz; 0 when out of range. */
uint64_t tsc_khz_to_mult(uint64_t tsc_khz);

/* The counter frequency (kHz) a VCLOCK_TSC mult stands for; 0 when out of range. */
uint64_t mult_to_tsc_khz(uint64_t mult);

/* The VCLOCK_TSC mult equal to a pvclock (mul, shift) scale; 0 when out of range. */
uint64_t pvclock_to_mult(uint32_t mul, int shift);

/* TSC kHz from CPUID 0x15 (EAX denominator, EBX numerator, ECX crystal Hz); 0 if unknown. */
uint64_t tsc_khz_from_leaf15(uint32_t eax, uint32_t ebx, uint32_t ecx);

/* An RTC register: BCD (two digits) or binary. */
unsigned rtc_field(uint8_t v, bool bcd);

/* Unix seconds of a UTC date (year 1970..9999); false for an impossible date. */
bool unix_from_civil(unsigned year, unsigned mon, unsigned day, unsigned hour, unsigned min,
		     unsigned sec, uint64_t *out);

/* Splits ns into a clock base. */
struct vclock_base vclock_base_from_ns(uint64_t ns);

/* base + ns, normalised. */
struct vclock_base vclock_base_add(struct vclock_base base, uint64_t ns);

/* A timespec a syscall may accept as a duration or time: sec >= 0, 0 <= nsec < 1e9. */
bool timespec_valid(int64_t sec, int64_t nsec);

/* ns of a valid timespec, saturated at UINT64_MAX. */
uint64_t timespec_to_ns_sat(int64_t sec, int64_t nsec);

/* a + b saturated at UINT64_MAX. */
uint64_t add_sat_u64(uint64_t a, uint64_t b);

#endif
