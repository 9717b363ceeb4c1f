/*
 * The clock syscalls, Linux semantics: clock_gettime, clock_getres,
 * gettimeofday, time.  They read the same vvar pages as the vDSO
 * (time_clock_get), so a vDSO fallback gives the same answer.
 */
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
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

/* gettimeofday(struct timeval *tv, struct timezone *tz): either may be NULL. */
SYSCALL(gettimeofday)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (a0) {
		struct vclock_ts t;
		struct user_timeval tv;

		time_clock_get(EL_CLOCK_REALTIME, &t);
		tv = (struct user_timeval){(int64_t)t.sec, (int64_t)(t.nsec / 1000)};
		if (copy_to_user(a0, &tv, sizeof(tv)))
			return -EFAULT;
	}
	if (a1) {
		const struct vvar_data *vd = vvar_kernel();
		struct user_timezone tz = {vd->tz_minuteswest, vd->tz_dsttime};

		if (copy_to_user(a1, &tz, sizeof(tz)))
			return -EFAULT;
	}
	return 0;
}

/* time(time_t *tloc): the seconds, also stored when tloc is not NULL. */
SYSCALL(time)
{
	struct vclock_ts t;
	int64_t sec;

	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	time_clock_get(EL_CLOCK_REALTIME, &t);
	sec = (int64_t)t.sec;
	if (a0 && copy_to_user(a0, &sec, sizeof(sec)))
		return -EFAULT;
	return sec;
}
