/*
 * select(2) and pselect6(2), as Linux's core_sys_select: nfds < 0 is
 * -EINVAL and past the descriptor table it is cut to the table; a set bit
 * on a closed descriptor is -EBADF; readable means POLLIN, POLLHUP or
 * POLLERR, writable POLLOUT or POLLERR, exceptional POLLPRI.  The sets are
 * rewritten only on success; the time left is written back (select's
 * timeval, pselect6's timespec) unless the timeout was zero.  A signal ends
 * the wait with -ERESTARTNOHAND (EINTR with a handler, a restart without);
 * pselect6 swaps in its sigmask for the wait (poll.h).
 */
#include "fs/poll.h"
#include "lib/string.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time_math.h"

#define NSEC_PER_USEC 1000ull
#define USEC_PER_SEC 1000000ll
#define SET_WORDS ((FD_MAX + 63) / 64)

#define POLLIN_SET (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET POLLPRI

struct fdsets {
	uint64_t in[SET_WORDS], out[SET_WORDS], ex[SET_WORDS];
};

static bool fd_isset(const uint64_t *set, int fd)
{
	return (set[fd / 64] >> (fd % 64)) & 1;
}

/* The user's set (NULL: empty) for the first n descriptors. */
static int get_set(uint64_t uset, int n, uint64_t *set)
{
	size_t bytes = (size_t)(n + 63) / 64 * 8;

	memset(set, 0, SET_WORDS * 8);
	return uset && copy_from_user(set, uset, bytes) ? -EFAULT : 0;
}

static int put_set(uint64_t uset, int n, const uint64_t *set)
{
	return uset && copy_to_user(uset, set, (size_t)(n + 63) / 64 * 8) ? -EFAULT : 0;
}

static long do_select(int64_t nfds, uint64_t uin, uint64_t uout, uint64_t uex, uint64_t deadline)
{
	struct fdsets want, got;
	int n = nfds > FD_MAX ? FD_MAX : (int)nfds, fd;
	long count;

	if (nfds < 0)
		return -EINVAL;
	if (get_set(uin, n, want.in) || get_set(uout, n, want.out) || get_set(uex, n, want.ex))
		return -EFAULT;
	for (fd = 0; fd < n; fd++)
		if ((fd_isset(want.in, fd) || fd_isset(want.out, fd) || fd_isset(want.ex, fd)) &&
		    !fd_get(fd))
			return -EBADF;
	for (;;) {
		int r;

		memset(&got, 0, sizeof(got));
		count = 0;
		for (fd = 0; fd < n; fd++) {
			uint64_t bit = 1ull << (fd % 64);
			struct file *f = fd_get(fd);
			uint32_t mask;

			/* A thread may close an fd while we sleep: not ready, as on Linux (POLLNVAL). */
			if (!((want.in[fd / 64] | want.out[fd / 64] | want.ex[fd / 64]) & bit) || !f)
				continue;
			mask = file_poll(f);
			if ((want.in[fd / 64] & bit) && (mask & POLLIN_SET))
				got.in[fd / 64] |= bit, count++;
			if ((want.out[fd / 64] & bit) && (mask & POLLOUT_SET))
				got.out[fd / 64] |= bit, count++;
			if ((want.ex[fd / 64] & bit) && (mask & POLLEX_SET))
				got.ex[fd / 64] |= bit, count++;
		}
		if (count)
			break;
		r = poll_sleep(deadline);
		if (r == -ETIMEDOUT)
			break;
		if (r == -EINTR)
			return -ERESTARTNOHAND;
	}
	if (put_set(uin, n, got.in) || put_set(uout, n, got.out) || put_set(uex, n, got.ex))
		return -EFAULT;
	return count;
}

static uint64_t time_left(uint64_t deadline)
{
	uint64_t now = time_monotonic_ns();

	return deadline > now ? deadline - now : 0;
}

/* select(int nfds, fd_set *, fd_set *, fd_set *, struct timeval *) */
SYSCALL_DEFINE5(select, int32_t, n, uint64_t, inp, uint64_t, outp, uint64_t, exp, uint64_t, tvp)
{
	struct {
		int64_t tv_sec, tv_usec;
	} tv;
	uint64_t deadline = POLL_FOREVER;
	long ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		/* Linux normalises the microseconds first: 1500000 us is 1.5 s. */
		if (!timespec_valid(tv.tv_sec + tv.tv_usec / USEC_PER_SEC,
				    (tv.tv_usec % USEC_PER_SEC) * (int64_t)NSEC_PER_USEC))
			return -EINVAL;
		deadline = poll_deadline(timespec_to_ns_sat(tv.tv_sec + tv.tv_usec / USEC_PER_SEC,
							    (tv.tv_usec % USEC_PER_SEC) * (int64_t)NSEC_PER_USEC));
	}
	ret = do_select(n, inp, outp, exp, deadline);
	if (tvp && deadline) {
		uint64_t left = time_left(deadline);

		tv.tv_sec = (int64_t)(left / NSEC_PER_SEC);
		tv.tv_usec = (int64_t)(left % NSEC_PER_SEC / NSEC_PER_USEC);
		if (copy_to_user(tvp, &tv, sizeof(tv)) && ret == -ERESTARTNOHAND)
			ret = -EINTR;
	}
	return ret;
}

/* pselect6(int nfds, fd_set *, fd_set *, fd_set *, struct timespec *, {sigset_t *, size_t} *) */
SYSCALL_DEFINE6(pselect6, int32_t, n, uint64_t, inp, uint64_t, outp, uint64_t, exp, uint64_t, tsp,
		uint64_t, usig)
{
	struct {
		int64_t tv_sec, tv_nsec;
	} ts;
	struct {
		uint64_t set, size;
	} sig = {0, 0};
	uint64_t deadline = POLL_FOREVER;
	long ret;
	int err;

	if (tsp) {
		if (copy_from_user(&ts, tsp, sizeof(ts)))
			return -EFAULT;
		if (!timespec_valid(ts.tv_sec, ts.tv_nsec))
			return -EINVAL;
		deadline = poll_deadline(timespec_to_ns_sat(ts.tv_sec, ts.tv_nsec));
	}
	if (usig && copy_from_user(&sig, usig, sizeof(sig)))
		return -EFAULT;
	err = poll_sigmask_begin(sig.set, sig.size);
	if (err)
		return err;
	ret = poll_sigmask_end(do_select(n, inp, outp, exp, deadline), -ERESTARTNOHAND);
	if (tsp && deadline) {
		uint64_t left = time_left(deadline);

		ts.tv_sec = (int64_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (int64_t)(left % NSEC_PER_SEC);
		if (copy_to_user(tsp, &ts, sizeof(ts)) && ret == -ERESTARTNOHAND)
			ret = -EINTR;
	}
	return ret;
}
