/*
 * KVM's paravirtual clock ABI (kvmclock): the per-vCPU time page the
 * hypervisor keeps current and the wall-clock structure it fills on request,
 * with the scaling both use.  Pure: shared by the kernel, the vDSO and the
 * host unit tests.
 */
#ifndef EL_PVCLOCK_H
#define EL_PVCLOCK_H

#include <stddef.h>
#include <stdint.h>

/* CPUID 0x40000001 EAX: the "new" kvmclock MSRs, and the stable-bit promise. */
#define KVM_FEATURE_CLOCKSOURCE2 (1u << 3)
#define KVM_FEATURE_CLOCKSOURCE_STABLE_BIT (1u << 24)

#define MSR_KVM_WALL_CLOCK_NEW 0x4b564d00
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01
#define KVM_SYSTEM_TIME_ENABLE 1u /* bit 0 of the MSR value */

/* pvclock_vcpu_time_info.flags */
#define PVCLOCK_TSC_STABLE_BIT (1u << 0) /* the TSC is synchronised: no cross-vCPU clamp needed */
#define PVCLOCK_GUEST_STOPPED (1u << 1)

/*
 * Written by the hypervisor while the vCPU is outside the guest; version is
 * odd during an update and changes with every update (a seqcount).
 * ns since kvmclock 0 = system_time + scale(tsc - tsc_timestamp).  Naturally
 * aligned without padding, as the ABI lays it out.
 */
struct pvclock_vcpu_time_info {
	uint32_t version;
	uint32_t pad0;
	uint64_t tsc_timestamp;
	uint64_t system_time;
	uint32_t tsc_to_system_mul;
	int8_t tsc_shift;
	uint8_t flags;
	uint8_t pad[2];
};

_Static_assert(sizeof(struct pvclock_vcpu_time_info) == 32, "pvclock ABI: 32 bytes");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, system_time) == 16 &&
		       offsetof(struct pvclock_vcpu_time_info, tsc_shift) == 28,
	       "pvclock ABI: field offsets");

/* The wall clock (unix time) at kvmclock 0, filled when the guest writes the MSR. */
struct pvclock_wall_clock {
	uint32_t version;
	uint32_t sec;
	uint32_t nsec;
};

_Static_assert(sizeof(struct pvclock_wall_clock) == 12, "pvclock ABI: 12 bytes");

/*
 * ns = ((delta shifted left by shift, right when negative) * mul) >> 32.
 * The product is 128-bit, so any delta works: the kernel has no tick that
 * would keep the delta small.
 */
static inline __attribute__((always_inline)) uint64_t pvclock_scale(uint64_t delta, uint32_t mul,
								    int shift)
{
	if (shift < 0)
		delta >>= -shift;
	else
		delta <<= shift;
	return (uint64_t)(((unsigned __int128)delta * mul) >> 32);
}

#endif
