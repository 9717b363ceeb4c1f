/*
 * vDSO clock functions: clock_gettime, gettimeofday, time and clock_getres
 * from the vvar pages, the syscall for everything else.  Built once per
 * variant (vdso.cmake): the TSC read and the clamp are fixed per image.
 */
#include "vdso/vdso_user.h"

int __vdso_clock_gettime(int clk, struct vdso_timespec *ts);
int __vdso_gettimeofday(struct vdso_timeval *tv, struct vdso_timezone *tz);
long __vdso_time(long *t);
int __vdso_clock_getres(int clk, struct vdso_timespec *res);

static inline __attribute__((always_inline)) int read_clock(uint32_t clk, struct vclock_ts *t)
{
	return vclock_gettime(&vvar_data, &vvar_pvclock, clk, vdso_counter, vdso_delta, t);
}

/* REALTIME or MONOTONIC, TSC clock source, no writer: the fast path (vclock_read_fast). */
static inline __attribute__((always_inline)) int read_fast(uint32_t clk, struct vclock_ts *t)
{
	return vclock_read_fast(&vvar_data, clk, vdso_counter, vdso_delta, t);
}

/*
 * The slow paths, out of line (and reached by a tail call), so that the
 * fast paths keep no callee-saved registers: the other clock ids, the
 * pvclock source, a writer in the seqcount, and the syscall for what the
 * vvar pages cannot answer.
 */
#define VDSO_SLOW __attribute__((noinline, cold))

static VDSO_SLOW int clock_gettime_slow(int clk, struct vdso_timespec *ts)
{
	struct vclock_ts t;

	/* A negative id (CPU-time clock of another process) is >= EL_CLOCK_IDS as unsigned. */
	if (read_clock((uint32_t)clk, &t)) {
		ts->tv_sec = (int64_t)t.sec;
		ts->tv_nsec = (long)t.nsec;
		return 0;
	}
	return (int)vdso_syscall(EL_NR_clock_gettime, clk, (long)ts, 0);
}

int __vdso_clock_gettime(int clk, struct vdso_timespec *ts)
{
	struct vclock_ts t;

	_Static_assert(EL_CLOCK_REALTIME == 0 && EL_CLOCK_MONOTONIC == 1, "the fast ids are 0, 1");
	if (__builtin_expect((uint32_t)clk <= EL_CLOCK_MONOTONIC && read_fast((uint32_t)clk, &t),
			     1)) {
		ts->tv_sec = (int64_t)t.sec;
		ts->tv_nsec = (long)t.nsec;
		return 0;
	}
	return clock_gettime_slow(clk, ts);
}

static void put_timezone(struct vdso_timezone *tz)
{
	tz->tz_minuteswest = vvar_data.tz_minuteswest;
	tz->tz_dsttime = vvar_data.tz_dsttime;
}

static VDSO_SLOW int gettimeofday_slow(struct vdso_timeval *tv, struct vdso_timezone *tz)
{
	struct vclock_ts t;

	if (tv) {
		if (!read_clock(EL_CLOCK_REALTIME, &t))
			return (int)vdso_syscall(EL_NR_gettimeofday, (long)tv, (long)tz, 0);
		tv->tv_sec = (int64_t)t.sec;
		tv->tv_usec = (long)(t.nsec / 1000);
	}
	if (tz)
		put_timezone(tz);
	return 0;
}

int __vdso_gettimeofday(struct vdso_timeval *tv, struct vdso_timezone *tz)
{
	struct vclock_ts t;

	if (__builtin_expect(!tv || !read_fast(EL_CLOCK_REALTIME, &t), 0))
		return gettimeofday_slow(tv, tz);
	tv->tv_sec = (int64_t)t.sec;
	tv->tv_usec = (long)(t.nsec / 1000);
	if (tz)
		put_timezone(tz);
	return 0;
}

static VDSO_SLOW long time_slow(long *tloc)
{
	struct vclock_ts now;

	if (!read_clock(EL_CLOCK_REALTIME, &now))
		return vdso_syscall(EL_NR_time, (long)tloc, 0, 0);
	if (tloc)
		*tloc = (long)now.sec;
	return (long)now.sec;
}

/* No tick keeps a "seconds" field current, so time() reads the counter, too. */
long __vdso_time(long *t)
{
	struct vclock_ts now;

	if (__builtin_expect(!read_fast(EL_CLOCK_REALTIME, &now), 0))
		return time_slow(t);
	if (t)
		*t = (long)now.sec;
	return (long)now.sec;
}

int __vdso_clock_getres(int clk, struct vdso_timespec *res)
{
	struct vclock_ts r;

	if (!vclock_getres((uint32_t)clk, &r))
		return (int)vdso_syscall(EL_NR_clock_getres, clk, (long)res, 0);
	if (res) {
		res->tv_sec = (int64_t)r.sec;
		res->tv_nsec = (long)r.nsec;
	}
	return 0;
}

/* The unprefixed names Linux's vDSO also exports. */
int clock_gettime(int clk, struct vdso_timespec *ts)
	__attribute__((weak, alias("__vdso_clock_gettime")));
int gettimeofday(struct vdso_timeval *tv, struct vdso_timezone *tz)
	__attribute__((weak, alias("__vdso_gettimeofday")));
long time(long *t) __attribute__((weak, alias("__vdso_time")));
int clock_getres(int clk, struct vdso_timespec *res)
	__attribute__((weak, alias("__vdso_clock_getres")));

/*
 * Which variant this image is, for tools (readelf -n on the image or on a
 * dump of [vdso]): an ELF note "entrylab", type 1, "<tsc>-<clamp>".
 */
__asm__(".pushsection .note.entrylab, \"a\", @note\n"
	"\t.balign 4\n"
	"\t.long 9\n"
	"\t.long 2f - 1f\n"
	"\t.long 1\n"
	"\t.asciz \"entrylab\"\n"
	"\t.balign 4\n"
	"1:\t.asciz \"" VDSO_TSC_NAME "-" VDSO_CLAMP_NAME "\"\n"
	"2:\t.balign 4\n"
	"\t.popsection");
