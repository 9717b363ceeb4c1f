/*
 * What the vDSO's own code shares (it is user code: no kernel headers):
 * the Linux structs it fills, the syscall fallback, the vvar pages and the
 * variant this image is built for (VDSO_TSC, VDSO_CLAMP from the build).
 */
#ifndef EL_VDSO_USER_H
#define EL_VDSO_USER_H

#include "entrylab/syscall_nr.h" /* the fallbacks' numbers: only defines */
#include "time/vclock.h"

#if !defined(VDSO_TSC) || !defined(VDSO_CLAMP)
#error "build each vDSO image with -DVDSO_TSC=<VCLOCK_TSC_*> -DVDSO_CLAMP=<VCLOCK_CLAMP_*>"
#endif

#if VDSO_TSC == VCLOCK_TSC_LFENCE
#define vdso_counter vclock_rdtsc_lfence
#define VDSO_TSC_NAME "lfence"
#elif VDSO_TSC == VCLOCK_TSC_LFENCE2
#define vdso_counter vclock_rdtsc_lfence2
#define VDSO_TSC_NAME "lfence2"
#elif VDSO_TSC == VCLOCK_TSC_RDTSCP
#define vdso_counter vclock_rdtscp
#define VDSO_TSC_NAME "rdtscp"
#elif VDSO_TSC == VCLOCK_TSC_NONE
#define vdso_counter vclock_rdtsc_none
#define VDSO_TSC_NAME "none"
#else
#error "unknown VDSO_TSC"
#endif

#if VDSO_CLAMP == VCLOCK_CLAMP_BRANCH
#define vdso_delta vclock_delta_branch
#define VDSO_CLAMP_NAME "branch"
#elif VDSO_CLAMP == VCLOCK_CLAMP_CMOV
#define vdso_delta vclock_delta_cmov
#define VDSO_CLAMP_NAME "cmov"
#else
#error "unknown VDSO_CLAMP"
#endif

#define VDSO_HIDDEN __attribute__((visibility("hidden")))

/*
 * Placed by vdso.lds at VVAR_DATA_OFFSET and VVAR_PVCLOCK_OFFSET: RIP-relative,
 * no relocation.  Not const: other parties change them under our feet.
 */
extern struct vvar_data vvar_data VDSO_HIDDEN;
extern struct pvclock_vcpu_time_info vvar_pvclock VDSO_HIDDEN;

struct vdso_timespec {
	int64_t tv_sec;
	long tv_nsec;
};

struct vdso_timeval {
	int64_t tv_sec;
	long tv_usec;
};

struct vdso_timezone {
	int tz_minuteswest;
	int tz_dsttime;
};

/* The real syscall, for what the vvar pages cannot answer: its -errno is returned as is. */
static inline long vdso_syscall(long nr, long a0, long a1, long a2)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(nr), "D"(a0), "S"(a1), "d"(a2)
			     : "rcx", "r11", "memory");
	return ret;
}

#endif
