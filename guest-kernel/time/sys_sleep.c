/*
 * nanosleep and clock_nanosleep.  No timer interrupt exists yet, so a sleep
 * spins on the clock (PAUSE, no HLT: nothing would wake us).  No signal can
 * interrupt it, so the remaining time is never written.
 */
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time/time_math.h"
#include "time/time_priv.h"

#define TIMER_ABSTIME 1

struct user_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/*
 * Clocks one may sleep on (Linux: those with an nsleep method); the others
 * known to Linux give EOPNOTSUPP, unknown ids EINVAL.
 */
enum { SLEEP_EINVAL, SLEEP_OK, SLEEP_EOPNOTSUPP };

static const uint8_t sleep_clocks[EL_CLOCK_IDS] = {
	[EL_CLOCK_REALTIME] = SLEEP_OK,
	[EL_CLOCK_MONOTONIC] = SLEEP_OK,
	[EL_CLOCK_BOOTTIME] = SLEEP_OK,
	[EL_CLOCK_TAI] = SLEEP_OK,
	[EL_CLOCK_PROCESS_CPUTIME_ID] = SLEEP_OK,
	[EL_CLOCK_MONOTONIC_RAW] = SLEEP_EOPNOTSUPP,
	[EL_CLOCK_REALTIME_COARSE] = SLEEP_EOPNOTSUPP,
	[EL_CLOCK_MONOTONIC_COARSE] = SLEEP_EOPNOTSUPP,
};

static int sleep_clock_check(int32_t clk)
{
	static const int errors[] = {
		[SLEEP_EINVAL] = -EINVAL, [SLEEP_OK] = 0, [SLEEP_EOPNOTSUPP] = -EOPNOTSUPP};

	if (clk < 0 || clk >= EL_CLOCK_IDS)
		return -EINVAL;
	return errors[sleep_clocks[clk]];
}

static uint64_t clock_now_ns(int32_t clk)
{
	struct vclock_ts t = {0, 0};

	time_clock_get(clk, &t);
	return add_sat_u64(t.sec * NSEC_PER_SEC, t.nsec);
}

/* Spins until clk reads at least deadline (ns). */
static void spin_until(int32_t clk, uint64_t deadline)
{
	while (clock_now_ns(clk) < deadline)
		__asm__ __volatile__("pause");
}

static long sleep_on(int32_t clk, uint64_t flags, uint64_t ureq)
{
	struct user_timespec req;
	uint64_t ns;
	int err = sleep_clock_check(clk);

	if (err)
		return err;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (!timespec_valid(req.tv_sec, req.tv_nsec))
		return -EINVAL;
	ns = timespec_to_ns_sat(req.tv_sec, req.tv_nsec);
	spin_until(clk, flags & TIMER_ABSTIME ? ns : add_sat_u64(clock_now_ns(clk), ns));
	return 0;
}

/* nanosleep(const struct timespec *req, struct timespec *rem) */
SYSCALL(nanosleep)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return sleep_on(EL_CLOCK_MONOTONIC, 0, a0);
}

/* clock_nanosleep(clockid_t, int flags, const struct timespec *req, struct timespec *rem) */
SYSCALL(clock_nanosleep)
{
	(void)a3, (void)a4, (void)a5;
	return sleep_on((int32_t)a0, a1, a2);
}
