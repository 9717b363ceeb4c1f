/*
 * The kernel's clock.  time_init() picks the clock source and publishes it
 * in the [vvar] pages; from then on the kernel reads its time from those
 * pages with the vDSO's own algorithm (time/vclock.h), so a syscall and a
 * vDSO call always agree.
 *
 * Source policy, as Linux on KVM: kvmclock gives the TSC frequency and the
 * wall clock exactly.  With an invariant TSC (CPUID invtsc) the TSC itself
 * is the clock (Linux prefers it over kvm-clock then); without, the pvclock
 * page is, as long as KVM marks it stable.  No kvmclock: the TSC with the
 * frequency of tsc_freq.c and the VMM's el.epoch_ns as the wall clock (outside
 * entrylab's VMM: the CMOS RTC).
 */
#include "arch/x86_64/cpufeature.h"
#include "config.h"
#include "lib/kprintf.h"
#include "sys/errno.h"
#include "sys/uaccess_u64.h"
#include "time/time.h"
#include "time_math.h"
#include "time/time_priv.h"
#include "time/user_time.h"

#define GUESS_KHZ 1000000u /* when nothing tells the TSC rate: durations are wrong */

static uint8_t vvar_area[VVAR_PAGES][VVAR_PAGE_SIZE] __page_aligned_bss;

static struct {
	uint64_t tsc_khz;          /* 0 if unknown */
	uint64_t process_start_ns; /* CLOCK_MONOTONIC at the last exec */
	bool rdtscp;
} tk;

/* What a clock source hands to vvar_publish(). */
struct clock_setup {
	uint32_t mode;           /* enum vclock_mode */
	uint64_t cycle_last;     /* VCLOCK_TSC */
	uint64_t mult;           /* VCLOCK_TSC */
	uint64_t mono_ns;        /* CLOCK_MONOTONIC at cycle_last (TSC) or kvmclock 0 */
	struct vclock_base wall; /* CLOCK_REALTIME - CLOCK_MONOTONIC: unix time at MONOTONIC 0 */
	const char *source;
	const char *wall_source;
};

static const uint8_t monotonic_ids[] = {EL_CLOCK_MONOTONIC, EL_CLOCK_MONOTONIC_COARSE,
					EL_CLOCK_MONOTONIC_RAW, EL_CLOCK_BOOTTIME};
static const uint8_t realtime_ids[] = {EL_CLOCK_REALTIME, EL_CLOCK_REALTIME_COARSE,
				       EL_CLOCK_TAI};

struct vvar_data *vvar_kernel(void)
{
	return (struct vvar_data *)vvar_area[0];
}

struct pvclock_vcpu_time_info *vvar_kernel_pvclock(void)
{
	return (struct pvclock_vcpu_time_info *)vvar_area[1];
}

void *time_vvar_pages(void)
{
	return vvar_area;
}

/* The kernel's own TSC read is always ordered, whatever the vDSO variant measures. */
static inline uint64_t kernel_counter(void)
{
	return tk.rdtscp ? vclock_rdtscp() : vclock_rdtsc_lfence();
}

/* Seqcount write side: readers retry while seq is odd or has changed. */
static void vvar_publish(const struct clock_setup *s)
{
	struct vvar_data *vd = vvar_kernel();
	struct vclock_base mono = vclock_base_from_ns(s->mono_ns);
	struct vclock_base real = vclock_base_add(s->wall, s->mono_ns);
	unsigned i;

	*(volatile uint32_t *)&vd->seq += 1;
	vclock_barrier();
	vd->clock_mode = s->mode;
	vd->cycle_last = s->cycle_last;
	vd->mult = s->mult;
	for (i = 0; i < ARRAY_SIZE(monotonic_ids); i++)
		vd->base[monotonic_ids[i]] = mono;
	for (i = 0; i < ARRAY_SIZE(realtime_ids); i++)
		vd->base[realtime_ids[i]] = real;
	vclock_barrier();
	*(volatile uint32_t *)&vd->seq += 1;
}

/* kvmclock's TSC rate and time as a TSC clock: exact at the snapshot. */
static void setup_tsc_from_pvclock(struct clock_setup *s, const struct pvclock_vcpu_time_info *p)
{
	s->mode = VCLOCK_TSC;
	s->cycle_last = p->tsc_timestamp;
	s->mult = pvclock_to_mult(p->tsc_to_system_mul, p->tsc_shift);
	s->mono_ns = p->system_time;
	s->source = "tsc (rate from kvmclock)";
}

static bool setup_kvmclock(struct clock_setup *s)
{
	struct pvclock_vcpu_time_info *pv = vvar_kernel_pvclock();
	struct pvclock_vcpu_time_info p;

	if (!kvmclock_enable(pv))
		return false;
	p = kvmclock_snapshot(pv);
	tk.tsc_khz = mult_to_tsc_khz(pvclock_to_mult(p.tsc_to_system_mul, p.tsc_shift));
	if (!tk.tsc_khz)
		return false;
	if (kvmclock_wall_clock(&s->wall)) {
		s->wall_source = "kvmclock";
	} else if (kernel_cmdline.epoch_ns) {
		/* The VMM's epoch is at TSC 0, which is kvmclock 0 closely enough. */
		s->wall = vclock_base_from_ns(kernel_cmdline.epoch_ns);
		s->wall_source = "el.epoch_ns";
	}
	if (cpu_has(EL_FEAT_INVTSC) || !(p.flags & PVCLOCK_TSC_STABLE_BIT)) {
		setup_tsc_from_pvclock(s, &p);
	} else {
		s->mode = VCLOCK_PVCLOCK;
		s->mono_ns = 0; /* kvmclock counts from the VM's start, as MONOTONIC does */
		s->source = "kvm-clock (pvclock page, stable TSC)";
	}
	return true;
}

static void setup_tsc(struct clock_setup *s)
{
	uint64_t khz = tsc_freq_detect(&s->source);
	uint64_t rtc;

	tk.tsc_khz = khz;
	if (!khz) {
		kprintf("time: nothing tells the TSC frequency (no kvmclock, CPUID 0x15/0x16/"
			"0x40000010, el.tsc_khz or PIT): assuming 1 GHz, so durations are wrong\n");
		khz = GUESS_KHZ;
		s->source = "a guess";
	}
	s->mode = VCLOCK_TSC;
	s->mult = tsc_khz_to_mult(khz);
	s->cycle_last = kernel_counter();
	s->mono_ns = vclock_tsc_scale(s->cycle_last, s->mult); /* since TSC 0, the VM's start */
	if (kernel_cmdline.epoch_ns) {
		s->wall = vclock_base_from_ns(kernel_cmdline.epoch_ns);
		s->wall_source = "el.epoch_ns";
	} else if (legacy_pc_usable() && cmos_unix_seconds(&rtc) &&
		   rtc * NSEC_PER_SEC > s->mono_ns) {
		s->wall = vclock_base_from_ns(rtc * NSEC_PER_SEC - s->mono_ns);
		s->wall_source = "the CMOS RTC";
	}
}

void time_init(void)
{
	struct clock_setup s = {.wall_source = 0};
	struct vclock_ts now;

	tk.rdtscp = cpu_has(EL_FEAT_RDTSCP);
	if (!setup_kvmclock(&s))
		setup_tsc(&s);
	vvar_publish(&s);
	time_process_start();
	now = (struct vclock_ts){0, 0};
	time_clock_get(EL_CLOCK_REALTIME, &now);
	kprintf("time: clocksource %s, TSC %lu kHz; wall clock from %s (unix %lu.%09lu)\n",
		s.source, tk.tsc_khz, s.wall_source ? s.wall_source : "nowhere: starts at 1970",
		now.sec, now.nsec);
}

/* kvmclock withdrew its stable-TSC promise: go on with the TSC from its last word. */
static void fall_back_to_tsc(void)
{
	struct pvclock_vcpu_time_info p = kvmclock_snapshot(vvar_kernel_pvclock());
	struct clock_setup s = {.wall = vvar_kernel()->base[EL_CLOCK_REALTIME]};

	setup_tsc_from_pvclock(&s, &p);
	kprintf("time: kvmclock is no longer stable; clocksource %s\n", s.source);
	vvar_publish(&s);
}

/* CLOCK_PROCESS/THREAD_CPUTIME_ID, or a CPU clock id (negative) of the caller itself. */
static bool cputime_clock(int32_t clk)
{
	if (clk == EL_CLOCK_PROCESS_CPUTIME_ID || clk == EL_CLOCK_THREAD_CPUTIME_ID)
		return true;
	/* Linux: pid = ~(id >> 3), 0 = the caller; bits 1:0 = the clock kind, 3 is invalid. */
	return clk < 0 && ~(clk >> 3) == 0 && (clk & 3) != 3;
}

/* Everything but the fast path of time_clock_get(), out of line so that it stays a leaf. */
static __attribute__((noinline, cold)) int clock_get_slow(int32_t clk, struct vclock_ts *ts)
{
	const struct vvar_data *vd = vvar_kernel();
	uint64_t ns;

	if (clk >= 0 && clk < EL_CLOCK_IDS &&
	    (VCLOCK_HRES_MASK | VCLOCK_COARSE_MASK) & (1u << clk)) {
		if (vclock_gettime(vd, vvar_kernel_pvclock(), (uint32_t)clk, kernel_counter,
				   vclock_delta_branch, ts))
			return 0;
		if (vd->clock_mode != VCLOCK_PVCLOCK)
			return -EINVAL; /* before time_init() */
		fall_back_to_tsc();
		return vclock_gettime(vd, vvar_kernel_pvclock(), (uint32_t)clk, kernel_counter,
				      vclock_delta_branch, ts)
			       ? 0
			       : -EINVAL;
	}
	if (!cputime_clock(clk))
		return -EINVAL;
	ns = time_monotonic_ns() - tk.process_start_ns;
	*ts = (struct vclock_ts){ns / NSEC_PER_SEC, ns % NSEC_PER_SEC};
	return 0;
}

int time_clock_get(int32_t clk, struct vclock_ts *ts)
{
	/* REALTIME, MONOTONIC from the TSC: the vDSO's fast path. */
	if (__builtin_expect((uint32_t)clk <= EL_CLOCK_MONOTONIC, 1) &&
	    vclock_read_fast(vvar_kernel(), (uint32_t)clk, kernel_counter, vclock_delta_branch,
			     ts))
		return 0;
	return clock_get_slow(clk, ts);
}

/*
 * The writers of gettimeofday and time (time.h): the fast read and the
 * stores inline, so that the fast path is a leaf; everything else through
 * time_clock_get, out of line.
 */
static inline bool read_realtime_fast(struct vclock_ts *t)
{
	return vclock_read_fast(vvar_kernel(), EL_CLOCK_REALTIME, kernel_counter,
				vclock_delta_branch, t);
}

/* nsec < NSEC_PER_SEC fits 32 bits: a 32-bit division by 1000 (one multiply). */
static inline uint64_t usec(uint64_t nsec)
{
	return (uint32_t)nsec / 1000u;
}

static inline int put_timezone(uint64_t tz)
{
	const struct vvar_data *vd = vvar_kernel();

	return put_user_u64_checked(tz, (uint32_t)vd->tz_minuteswest |
						(uint64_t)(uint32_t)vd->tz_dsttime << 32);
}

static __attribute__((noinline, cold)) long gettimeofday_slow(uint64_t tv, uint64_t tz)
{
	struct vclock_ts t = {0, 0};

	if (tv) {
		time_clock_get(EL_CLOCK_REALTIME, &t);
		if (put_user_2u64_checked(tv, t.sec, usec(t.nsec)))
			return -EFAULT;
	}
	return tz && put_timezone(tz) ? -EFAULT : 0;
}

long time_gettimeofday_checked(uint64_t tv, uint64_t tz)
{
	struct vclock_ts t;

	if (__builtin_expect(!tv || !read_realtime_fast(&t), 0))
		return gettimeofday_slow(tv, tz);
	if (put_user_2u64_checked(tv, t.sec, usec(t.nsec)))
		return -EFAULT;
	return tz && put_timezone(tz) ? -EFAULT : 0;
}

long time_time_checked(uint64_t tloc)
{
	struct vclock_ts t = {0, 0};

	time_clock_get(EL_CLOCK_REALTIME, &t);
	if (tloc && put_user_u64_checked(tloc, t.sec))
		return -EFAULT;
	return (long)t.sec;
}

int time_clock_getres(int32_t clk, struct vclock_ts *res)
{
	if (clk >= 0 && vclock_getres((uint32_t)clk, res))
		return 0;
	if (!cputime_clock(clk))
		return -EINVAL;
	*res = (struct vclock_ts){0, 1};
	return 0;
}

static uint64_t clock_ns(int32_t clk)
{
	struct vclock_ts ts = {0, 0};

	time_clock_get(clk, &ts);
	return ts.sec * NSEC_PER_SEC + ts.nsec;
}

uint64_t time_monotonic_ns(void)
{
	return clock_ns(EL_CLOCK_MONOTONIC);
}

uint64_t time_realtime_ns(void)
{
	return clock_ns(EL_CLOCK_REALTIME);
}

uint64_t time_tsc_khz(void)
{
	return tk.tsc_khz;
}

void time_process_start(void)
{
	tk.process_start_ns = time_monotonic_ns();
}
