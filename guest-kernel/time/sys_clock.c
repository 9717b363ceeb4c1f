/*
 * The clock syscalls, Linux semantics: clock_gettime, clock_getres,
 * gettimeofday, time.  They read the same vvar pages as the vDSO
 * (time_clock_get), so a vDSO fallback gives the same answer.
 */
#include <stddef.h>

#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "time/time.h"
#include "time/time_priv.h"

/* Linux's user structs (x86-64). */
struct user_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct user_timeval {
	int64_t tv_sec;
	int64_t tv_usec;
};

struct user_timezone {
	int32_t tz_minuteswest;
	int32_t tz_dsttime;
};

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
 * The writes of gettimeofday and time to pointers whose range is checked
 * (user_range_ok): each a single REP MOVSQ that only a fault can stop.
 */
static int put_timeval(uint64_t tv)
{
	struct vclock_ts t;
	uint64_t v[2];

	_Static_assert(sizeof(struct user_timeval) == sizeof(v), "timeval: two quadwords");
	time_clock_get(EL_CLOCK_REALTIME, &t);
	v[0] = t.sec;
	v[1] = t.nsec / 1000;
	return put_user_u64s_checked(tv, v, 2);
}

static int put_timezone(uint64_t tz)
{
	const struct vvar_data *vd = vvar_kernel();
	uint64_t v = (uint32_t)vd->tz_minuteswest | (uint64_t)(uint32_t)vd->tz_dsttime << 32;

	_Static_assert(offsetof(struct user_timezone, tz_minuteswest) == 0 &&
			       offsetof(struct user_timezone, tz_dsttime) == 4 &&
			       sizeof(struct user_timezone) == sizeof(v),
		       "timezone: one quadword, minuteswest low (little-endian)");
	return put_user_u64s_checked(tz, &v, 1);
}

long time_gettimeofday_checked(uint64_t tv, uint64_t tz)
{
	if (tv && put_timeval(tv))
		return -EFAULT;
	if (tz && put_timezone(tz))
		return -EFAULT;
	return 0;
}

long time_time_checked(uint64_t tloc)
{
	struct vclock_ts t;
	uint64_t sec;

	time_clock_get(EL_CLOCK_REALTIME, &t);
	sec = t.sec;
	if (tloc && put_user_u64s_checked(tloc, &sec, 1))
		return -EFAULT;
	return (long)sec;
}

/* gettimeofday(struct timeval *tv, struct timezone *tz): either may be NULL. tv is written first. */
SYSCALL(gettimeofday)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && (!user_range_ok(a0, sizeof(struct user_timeval)) || put_timeval(a0)))
		return -EFAULT;
	if (a1 && (!user_range_ok(a1, sizeof(struct user_timezone)) || put_timezone(a1)))
		return -EFAULT;
	return 0;
}

/* time(time_t *tloc): the seconds, also stored when tloc is not NULL. */
SYSCALL(time)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if (a0 && !user_range_ok(a0, sizeof(int64_t)))
		return -EFAULT;
	return time_time_checked(a0);
}
