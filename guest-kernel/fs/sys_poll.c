/*
 * poll(2) and ppoll(2), as Linux's do_sys_poll: at most RLIMIT_NOFILE
 * (FD_MAX) entries (-EINVAL past it, duplicates allowed); a negative fd is
 * skipped (revents 0), a closed one is POLLNVAL; revents are the file's
 * readiness within events plus POLLERR and POLLHUP, written back for every
 * entry.  A signal ends the wait with -ERESTARTNOHAND: EINTR when a handler
 * runs, a restart otherwise (Linux resumes poll's remaining time through
 * restart_syscall; here the restart waits the whole timeout again).
 * ppoll swaps in its sigmask for the wait (poll.h), writes the time left
 * back into its timespec as Linux does, and is never restarted with a
 * handler.
 */
#include "fs/poll.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time_math.h"


struct pollfd_user {
	int32_t fd;
	int16_t events, revents;
};

struct timespec_user {
	int64_t tv_sec, tv_nsec;
};

static long do_poll(uint64_t ufds, uint64_t nfds, uint64_t deadline)
{
	struct pollfd_user fds[FD_MAX];
	long n = 0;
	uint64_t i;

	if (nfds > FD_MAX)
		return -EINVAL;
	if (copy_from_user(fds, ufds, nfds * sizeof(fds[0])))
		return -EFAULT;
	for (;;) {
		int r;

		for (i = 0, n = 0; i < nfds; i++) {
			struct file *f;
			uint32_t want = (uint16_t)fds[i].events | POLLERR | POLLHUP;

			fds[i].revents = 0;
			if (fds[i].fd < 0)
				continue;
			f = fd_get(fds[i].fd);
			fds[i].revents = (int16_t)(f ? file_poll(f) & want : POLLNVAL);
			if (fds[i].revents)
				n++;
		}
		if (n)
			break;
		r = poll_sleep(deadline);
		if (r == -ETIMEDOUT)
			break;
		if (r == -EINTR) {
			n = -ERESTARTNOHAND;
			break;
		}
	}
	for (i = 0; i < nfds; i++)
		if (copy_to_user(ufds + i * sizeof(fds[0]) + offsetof(struct pollfd_user, revents),
				 &fds[i].revents, sizeof(fds[i].revents)))
			return -EFAULT;
	return n;
}

/* poll(struct pollfd *, nfds_t, int timeout_ms): a negative timeout waits forever. */
SYSCALL_DEFINE3(poll, uint64_t, ufds, uint64_t, nfds, int32_t, ms)
{
	return do_poll(ufds, nfds, poll_deadline(ms < 0 ? POLL_FOREVER : (uint64_t)ms * NSEC_PER_MSEC));
}

/* ppoll(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *, size_t) */
SYSCALL_DEFINE5(ppoll, uint64_t, ufds, uint64_t, nfds, uint64_t, tsp, uint64_t, sigmask, uint64_t,
		sigsetsize)
{
	struct timespec_user ts;
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
	err = poll_sigmask_begin(sigmask, sigsetsize);
	if (err)
		return err;
	ret = poll_sigmask_end(do_poll(ufds, nfds, deadline), -ERESTARTNOHAND);
	/* The time left, except after a zero timeout (Linux's poll_select_finish). */
	if (tsp && deadline) {
		uint64_t now = time_monotonic_ns(), left = deadline > now ? deadline - now : 0;

		ts = (struct timespec_user){(int64_t)(left / NSEC_PER_SEC), (int64_t)(left % NSEC_PER_SEC)};
		if (copy_to_user(tsp, &ts, sizeof(ts)) && ret == -ERESTARTNOHAND)
			ret = -EINTR;
	}
	return ret;
}
