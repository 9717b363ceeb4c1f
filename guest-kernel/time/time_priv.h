/*
 * Inside time/: the clock state set up by time_init() and the pieces it is
 * built from.
 */
#ifndef EL_TIME_PRIV_H
#define EL_TIME_PRIV_H

#include "kernel.h"
#include "time/vclock.h"

/* The vvar pages (time.c). */
struct vvar_data *vvar_kernel(void);
struct pvclock_vcpu_time_info *vvar_kernel_pvclock(void);

/*
 * Any clock id (Linux's, negative CPU-clock ids included) to its value:
 * 0 or -EINVAL.
 */
int time_clock_get(int32_t clk, struct vclock_ts *ts);
/* Its resolution: 0 or -EINVAL. */
int time_clock_getres(int32_t clk, struct vclock_ts *res);

/* kvmclock.c: registers the pvclock page with KVM; false when KVM does not offer it. */
bool kvmclock_enable(struct pvclock_vcpu_time_info *pv);
/* A consistent copy of the page KVM writes. */
struct pvclock_vcpu_time_info kvmclock_snapshot(const struct pvclock_vcpu_time_info *pv);
/* The wall clock at kvmclock 0; false when KVM refused the MSR. */
bool kvmclock_wall_clock(struct vclock_base *wall);

/* legacy_pc.c: only where the hypervisor is not KVM (not entrylab's VMM). */
bool legacy_pc_usable(void);
/* The TSC rate measured against the PIT, kHz; 0 when the PIT does not count. */
uint64_t pit_tsc_khz(void);
/* The CMOS RTC as unix seconds (UTC, as PCs under QEMU keep it); false if nonsense. */
bool cmos_unix_seconds(uint64_t *sec);

/* tsc_freq.c: the TSC frequency in kHz and where it came from; 0 when nothing says. */
uint64_t tsc_freq_detect(const char **source);

#endif
