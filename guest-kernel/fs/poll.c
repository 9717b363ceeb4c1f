/*
 * Readiness: the contract is in fs/poll.h.
 */
#include "fs/epoll.h"
#include "fs/poll.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "time/time.h"
#include "time_math.h"

const char poll_chan;

/* Tasks asleep in poll_sleep: with none, a readiness change wakes nobody (a pipe's fast path). */
static unsigned pollers;

uint32_t file_poll(struct file *f)
{
	return f->ops && f->ops->poll ? f->ops->poll(f) : POLL_ALWAYS;
}

void poll_notify(void)
{
	poll_notify_key(0, 0);
}

void poll_notify_key(const void *key, uint32_t events)
{
	epoll_event_of(key, events);
	if (pollers)
		wake_up(&poll_chan);
}

uint64_t poll_deadline(uint64_t timeout_ns)
{
	if (timeout_ns == POLL_FOREVER)
		return POLL_FOREVER;
	return timeout_ns ? add_sat_u64(time_monotonic_ns(), timeout_ns) : 0;
}

int poll_sleep(uint64_t deadline)
{
	int r;

	if (signal_pending(current))
		return -EINTR;
	if (deadline != POLL_FOREVER && time_monotonic_ns() >= deadline)
		return -ETIMEDOUT;
	/* sched_block's 0 means no deadline; ours never is 0 here (it has passed). */
	pollers++;
	r = sched_block(&poll_chan, deadline == POLL_FOREVER ? 0 : deadline, true);
	pollers--;
	if (r == -EINTR && !signal_pending(current))
		return 0;
	return r;
}

int poll_sigmask_begin(uint64_t umask, uint64_t size)
{
	struct task *t = current;
	uint64_t mask;

	if (!umask)
		return 0;
	if (size != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	t->sig.saved_blocked = t->sig.blocked;
	t->sig.restore_blocked = true;
	signal_set_blocked(t, mask & ~(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP)));
	return 0;
}

long poll_sigmask_end(long ret, long err)
{
	struct task *t = current;

	if (!t->sig.restore_blocked)
		return ret;
	if (ret == err) {
		/* Delivery puts the mask back: in the handler's frame, or at once (signal.c). */
		t->work |= TASK_WORK_SIGPENDING;
		return ret;
	}
	t->sig.restore_blocked = false;
	signal_set_blocked(t, t->sig.saved_blocked);
	return ret;
}
