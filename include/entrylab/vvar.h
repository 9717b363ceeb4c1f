/*
 * The [vvar] pages: what the kernel publishes for the vDSO to read.
 *
 * Two pages sit right below the vDSO image, at offsets fixed at link time
 * (vdso/vdso.lds), so the vDSO reaches them RIP-relative without any
 * relocation:
 *   base - 2 pages  struct vvar_data, written by the kernel
 *   base - 1 page   KVM's pvclock_vcpu_time_info for vCPU 0, written by KVM
 * Layout shared by the kernel, the vDSO and the host unit tests.
 */
#ifndef EL_VVAR_H
#define EL_VVAR_H

#include <stdint.h>

#include "entrylab/pvclock.h"

#define VVAR_PAGE_SIZE 4096
#define VVAR_PAGES 2
#define VVAR_DATA_OFFSET (-2 * VVAR_PAGE_SIZE)    /* from the vDSO base */
#define VVAR_PVCLOCK_OFFSET (-1 * VVAR_PAGE_SIZE)

/* Linux's clock ids (the kernel and the vDSO must not use libc's). */
enum {
	EL_CLOCK_REALTIME = 0,
	EL_CLOCK_MONOTONIC = 1,
	EL_CLOCK_PROCESS_CPUTIME_ID = 2,
	EL_CLOCK_THREAD_CPUTIME_ID = 3,
	EL_CLOCK_MONOTONIC_RAW = 4,
	EL_CLOCK_REALTIME_COARSE = 5,
	EL_CLOCK_MONOTONIC_COARSE = 6,
	EL_CLOCK_BOOTTIME = 7,
	EL_CLOCK_REALTIME_ALARM = 8,
	EL_CLOCK_BOOTTIME_ALARM = 9,
	EL_CLOCK_TAI = 11,
	EL_CLOCK_IDS = 16, /* room in vvar_data.base, as Linux's basetime[] */
};

/* Clocks the vDSO computes from the counter, and those it rounds down to the tick. */
#define VCLOCK_HRES_MASK                                                                 \
	((1u << EL_CLOCK_REALTIME) | (1u << EL_CLOCK_MONOTONIC) |                        \
	 (1u << EL_CLOCK_MONOTONIC_RAW) | (1u << EL_CLOCK_BOOTTIME) | (1u << EL_CLOCK_TAI))
#define VCLOCK_COARSE_MASK ((1u << EL_CLOCK_REALTIME_COARSE) | (1u << EL_CLOCK_MONOTONIC_COARSE))

/*
 * Resolution of the *_COARSE clocks: Linux's with HZ=250.  There is no tick
 * (no timer interrupt yet), so a coarse clock is the precise one rounded
 * down to this grid: the same values a 250 Hz tick would show, monotonic,
 * but read with the counter.
 */
#define VCLOCK_COARSE_NS 4000000u
#define NSEC_PER_SEC 1000000000ull
_Static_assert(NSEC_PER_SEC % VCLOCK_COARSE_NS == 0, "the tick grid divides a second");

/*
 * VCLOCK_TSC scale: mult is ns per tick in 32.32 fixed point.  A constant
 * shift (unlike pvclock's signed one) keeps the hot path at MUL + SHRD.
 */
#define VCLOCK_TSC_SHIFT 32

enum vclock_mode {
	VCLOCK_NONE = 0,    /* not set up: the vDSO makes the syscall */
	VCLOCK_TSC = 1,     /* cycle_last, mul, shift below */
	VCLOCK_PVCLOCK = 2, /* the pvclock page; base[] is relative to kvmclock 0 */
};

enum vgetcpu_mode {
	VGETCPU_VVAR = 0,  /* cpu and node below (one vCPU) */
	VGETCPU_RDPID = 1, /* RDPID: TSC_AUX = node << 12 | cpu */
};

/* A clock's value when the counter reads cycle_last (TSC) or kvmclock reads 0. */
struct vclock_base {
	uint64_t sec;
	uint64_t nsec; /* < NSEC_PER_SEC */
};

struct vvar_data {
	uint32_t seq;         /* odd while the kernel rewrites the page */
	uint32_t clock_mode;  /* enum vclock_mode */
	uint64_t cycle_last;  /* VCLOCK_TSC: the counter value base[] refers to */
	uint64_t mult;        /* VCLOCK_TSC: ns = delta * mult >> VCLOCK_TSC_SHIFT */
	struct vclock_base base[EL_CLOCK_IDS]; /* by clock id */
	int32_t tz_minuteswest; /* gettimeofday's struct timezone */
	int32_t tz_dsttime;
	uint32_t getcpu_mode; /* enum vgetcpu_mode */
	uint32_t cpu;
	uint32_t node;
	/* Informative: which vDSO image reads this page (knobs.h EL_TSC_*, EL_CLAMP_*). */
	uint32_t variant_tsc;
	uint32_t variant_clamp;
};

_Static_assert(sizeof(struct vvar_data) <= VVAR_PAGE_SIZE, "vvar_data fits its page");

#endif
