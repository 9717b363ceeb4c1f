/*
 * Time keeping: a clock source (kvmclock where KVM offers it, else the TSC
 * with the frequency from CPUID or the VMM's el.tsc_khz) and the wall clock
 * at boot (kvmclock's, else the VMM's el.epoch_ns).
 */
#ifndef EL_TIME_H
#define EL_TIME_H

#include "entrylab/vvar.h" /* NSEC_PER_SEC */
#include "kernel.h"

#define NSEC_PER_MSEC 1000000ull
/* The clock tick user mode counts in: times(2), /proc's tick fields, AT_CLKTCK. */
#define USER_HZ 100
#define NSEC_PER_TICK ((uint64_t)(NSEC_PER_SEC / USER_HZ))

/* After cpu_setup() and the command line: picks and initialises the clock source. */
void time_init(void);
uint64_t time_monotonic_ns(void);
uint64_t time_realtime_ns(void);
/* TSC frequency in use (kHz), 0 if unknown. */
uint64_t time_tsc_khz(void);

/*
 * The [vvar] pages (entrylab/vvar.h) the clock keeps current: VVAR_PAGES
 * physically contiguous pages, page aligned.  The vDSO maps them.
 */
void *time_vvar_pages(void);

/*
 * A new process starts now: its CPU-time clocks (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID) count from here.  CPU time is not accounted
 * per task: they read monotonic time since the last exec of any process.
 * vdso_map_process() calls this at every exec.
 */
void time_process_start(void);

/*
 * gettimeofday and time for the vsyscall emulation, which has checked the
 * pointers' ranges already (user_range_ok): tv, tz, tloc each 0 or in user
 * memory; only a fault is caught.  0 (the seconds for time) or -EFAULT.
 */
long time_gettimeofday_checked(uint64_t tv, uint64_t tz);
long time_time_checked(uint64_t tloc);

#endif
