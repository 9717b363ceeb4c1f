/*
 * nanosleep and clock_nanosleep: the task blocks with a deadline (the
 * scheduler halts the CPU or runs others meanwhile).  A signal interrupts
 * the sleep: the time left goes to *rem for a relative sleep, and the call
 * restarts when no handler ran (-ERESTARTNOHAND), as the whole request
 * again, where Linux resumes the remainder through restart_syscall.
 */
#include "proc/process.h"
#include "proc/sched.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time_math.h"
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

/*
 * Sleeps until clk reads at least deadline (ns): the scheduler wakes the
 * task at the matching CLOCK_MONOTONIC time.  0, or -EINTR for a signal.
 */
static int sleep_until(int32_t clk, uint64_t deadline)
{
	for (;;) {
		uint64_t now = clock_now_ns(clk), mono;

		if (now >= deadline)
			return 0;
		mono = add_sat_u64(time_monotonic_ns(), deadline - now);
		if (sched_block(&current->wake_deadline_ns, mono, true) == -EINTR)
			return -EINTR;
	}
}

static long sleep_on(int32_t clk, uint64_t flags, uint64_t ureq, uint64_t urem)
{
	struct user_timespec req;
	uint64_t ns, deadline;
	int err = sleep_clock_check(clk);

	if (err)
		return err;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	if (!timespec_valid(req.tv_sec, req.tv_nsec))
		return -EINVAL;
	ns = timespec_to_ns_sat(req.tv_sec, req.tv_nsec);
	deadline = flags & TIMER_ABSTIME ? ns : add_sat_u64(clock_now_ns(clk), ns);
	if (!sleep_until(clk, deadline))
		return 0;
	/* Interrupted: a relative sleep tells how much was left; restarted if no handler ran. */
	if (!(flags & TIMER_ABSTIME) && urem) {
		uint64_t now = clock_now_ns(clk), left = deadline > now ? deadline - now : 0;
		struct user_timespec rem = {(int64_t)(left / NSEC_PER_SEC), (int64_t)(left % NSEC_PER_SEC)};

		if (copy_to_user(urem, &rem, sizeof(rem)))
			return -EFAULT;
	}
	return -ERESTARTNOHAND;
}

/* nanosleep(const struct timespec *req, struct timespec *rem) */
SYSCALL_DEFINE2(nanosleep, uint64_t, rqtp, uint64_t, rmtp)
{
	return sleep_on(EL_CLOCK_MONOTONIC, 0, rqtp, rmtp);
}

/* clock_nanosleep(clockid_t, int flags, const struct timespec *req, struct timespec *rem) */
SYSCALL_DEFINE4(clock_nanosleep, int32_t, which_clock, uint64_t, flags, uint64_t, rqtp, uint64_t,
		rmtp)
{
	return sleep_on(which_clock, flags, rqtp, rmtp);
}
