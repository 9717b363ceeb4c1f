/*
 * The clock syscalls, Linux semantics: clock_gettime, clock_getres,
 * gettimeofday, time.  They read the same vvar pages as the vDSO
 * (time_clock_get), so a vDSO fallback gives the same answer.
 */
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "time/time.h"
#include "time/time_priv.h"
#include "time/user_time.h"

static long put_timespec(uint64_t uaddr, const struct vclock_ts *t)
{
	struct user_timespec ts = {(int64_t)t->sec, (int64_t)t->nsec};

	return copy_to_user(uaddr, &ts, sizeof(ts));
}

/* clock_gettime(clockid_t, struct timespec *): the clock id is an int. */
SYSCALL_DEFINE2(clock_gettime, int32_t, which_clock, uint64_t, tp)
{
	struct vclock_ts t;
	int err = time_clock_get(which_clock, &t);

	return err ? err : put_timespec(tp, &t);
}

/* clock_getres(clockid_t, struct timespec *res): res may be NULL. */
SYSCALL_DEFINE2(clock_getres, int32_t, which_clock, uint64_t, tp)
{
	struct vclock_ts r;
	int err = time_clock_getres(which_clock, &r);

	if (err || !tp)
		return err;
	return put_timespec(tp, &r);
}

/*
 * gettimeofday(struct timeval *tv, struct timezone *tz): either may be NULL.
 * As Linux, tv is written before tz is looked at: a bad tz still leaves tv
 * written.
 */
SYSCALL_DEFINE2(gettimeofday, uint64_t, tv, uint64_t, tz)
{
	bool tz_ok = !tz || user_range_ok(tz, sizeof(struct user_timezone));
	long ret;

	if (tv && !user_range_ok(tv, sizeof(struct user_timeval)))
		return -EFAULT;
	ret = time_gettimeofday_checked(tv, tz_ok ? tz : 0);
	return tz_ok ? ret : -EFAULT;
}

/* time(time_t *tloc): the seconds, also stored when tloc is not NULL. */
SYSCALL_DEFINE1(time, uint64_t, tloc)
{
	if (tloc && !user_range_ok(tloc, sizeof(int64_t)))
		return -EFAULT;
	return time_time_checked(tloc);
}
