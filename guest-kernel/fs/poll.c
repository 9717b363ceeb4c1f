/*
 * Readiness: the contract is in fs/poll.h.
 */
#include "fs/poll.h"
#include "proc/sched.h"

const char poll_chan;

uint32_t file_poll(struct file *f)
{
	return f->ops && f->ops->poll ? f->ops->poll(f) : POLL_ALWAYS;
}

void poll_notify(void)
{
	wake_up(&poll_chan);
}
