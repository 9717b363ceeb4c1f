/*
 * Readiness (poll.c): the one contract between files that can make a caller
 * wait (pipes, FIFOs, sockets, the console ...) and the calls that wait on
 * several of them (poll, ppoll, select, pselect6, epoll).
 *
 *   - A file's ops->poll(f) answers its readiness now, as a mask of the
 *     POLL* bits below (Linux's values); NULL means "always readable and
 *     writable", as Linux treats a file with no poll method (regular files,
 *     /dev/null ...).  It never sleeps.
 *   - Whoever changes a file's readiness (data in, room out, the last end
 *     closed, a connection queued ...) calls poll_notify() after the change.
 *     The waiters block on one channel and re-ask every file they watch:
 *     one CPU and few tasks, so a wake of all pollers is cheaper than a wait
 *     queue per file and cannot miss an event.  poll_notify_key(key, events)
 *     says which files changed (those whose f->priv is key) and what may
 *     have become true (POLL* bits, 0: anything): the same wake, and epoll's
 *     edge-triggered entries learn of an event only from their own file and
 *     only for bits they asked for, as Linux's keyed wake-ups (poll_notify()
 *     counts as any event of every file).
 */
#ifndef EL_FS_POLL_H
#define EL_FS_POLL_H

#include "fs/file.h"

#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200
#define POLLMSG 0x0400
#define POLLRDHUP 0x2000

/* What a file with no poll method answers. */
#define POLL_ALWAYS (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM)

/* f's readiness now (ops->poll, or POLL_ALWAYS). */
uint32_t file_poll(struct file *f);

/* The channel every poller blocks on (sched_block(poll_chan, ...)). */
extern const char poll_chan;

/* A file's readiness may have changed: every poller re-checks. */
void poll_notify(void);
/* As poll_notify, for the files whose priv is key, events (0: any) perhaps now true. */
void poll_notify_key(const void *key, uint32_t events);

/*
 * The waiters' side: a deadline from a relative timeout in ns (POLL_FOREVER
 * for none; 0 ns: already passed), and one sleep on poll_chan until it:
 * 0 (re-check), -EINTR (a signal is pending) or -ETIMEDOUT (never sleeps
 * once the deadline has passed).
 */
#define POLL_FOREVER UINT64_MAX
uint64_t poll_deadline(uint64_t timeout_ns);
int poll_sleep(uint64_t deadline);

/*
 * The sigmask of ppoll, pselect6 and epoll_pwait: set for the wait
 * (NULL: unchanged) and put back by poll_sigmask_end, after the handler has
 * run when the call ends with err (-ERESTARTNOHAND, -EINTR), at once
 * otherwise, as Linux's restore_saved_sigmask_unless.  0 or -EINVAL/-EFAULT.
 */
int poll_sigmask_begin(uint64_t umask, uint64_t size);
long poll_sigmask_end(long ret, long err);

#endif
