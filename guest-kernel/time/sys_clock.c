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
SYSCALL(clock_gettime)
{
	struct vclock_ts t;
	int err = time_clock_get((int32_t)a0, &t);

	(void)a2, (void)a3, (void)a4, (void)a5;
	return err ? err : put_timespec(a1, &t);
}

/* clock_getres(clockid_t, struct timespec *res): res may be NULL. */
SYSCALL(clock_getres)
{
	struct vclock_ts r;
	int err = time_clock_getres((int32_t)a0, &r);

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (err || !a1)
		return err;
	return put_timespec(a1, &r);
}

/*
 * gettimeofday(struct timeval *tv, struct timezone *tz): either may be NULL.
 * As Linux, tv is written before tz is looked at: a bad tz still leaves tv
 * written.
 */
SYSCALL(gettimeofday)
{
	bool tz_ok = !a1 || user_range_ok(a1, sizeof(struct user_timezone));
	long ret;

	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && !user_range_ok(a0, sizeof(struct user_timeval)))
		return -EFAULT;
	ret = time_gettimeofday_checked(a0, tz_ok ? a1 : 0);
	return tz_ok ? ret : -EFAULT;
}

/* time(time_t *tloc): the seconds, also stored when tloc is not NULL. */
SYSCALL(time)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && !user_range_ok(a0, sizeof(int64_t)))
		return -EFAULT;
	return time_time_checked(a0);
}
