/*
 * epoll_create, epoll_create1, epoll_ctl, epoll_wait, epoll_pwait,
 * epoll_pwait2 (epoll.h), with Linux's checks: EBADF for a closed fd,
 * EINVAL when epfd is no epoll or fd is epfd itself, EPERM for a file that
 * cannot be polled (regular files, /dev/null), EEXIST/ENOENT for an entry
 * present/absent, ELOOP for an epoll that would reach itself or nest
 * deeper than EP_MAX_NESTS, EINVAL for maxevents <= 0 or past
 * EP_MAX_EVENTS.  A wait a signal ends is -EINTR, never restarted.
 *
 * The entries of every instance are on one list walk away (a few files,
 * one CPU): a notify marks matching entries, a wait asks each file.
 */
#include "fs/epoll.h"
#include "fs/poll.h"
#include "mm/kmalloc.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"
#include "time/time.h"
#include "time_math.h"

#define EPOLL_CLOEXEC O_CLOEXEC
#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3
#define EPOLLEXCLUSIVE (1u << 28)
#define EPOLLWAKEUP (1u << 29)
#define EPOLLONESHOT (1u << 30)
#define EPOLLET (1u << 31)
#define EP_MAX_NESTS 4

struct epoll_event_user {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

#define EP_MAX_EVENTS (0x7fffffff / sizeof(struct epoll_event_user))

struct epitem {
	struct epitem *next;
	struct file *file; /* no reference: epoll_file_gone drops the entry */
	int fd;
	uint32_t events; /* as asked, with EPOLLERR | EPOLLHUP */
	uint64_t data;
	bool pending;  /* EPOLLET: an event came since the last report */
	bool disabled; /* EPOLLONESHOT: reported, until EPOLL_CTL_MOD */
};

struct eventpoll {
	struct eventpoll *next; /* every instance */
	struct epitem *items;
};

static struct eventpoll *all_eps;

static const struct file_ops epoll_ops;

static struct eventpoll *ep_of(struct file *f)
{
	return f && f->ops == &epoll_ops ? f->priv : 0;
}

/* What it would report now (0: nothing); mask only: the entry is not changed. */
static uint32_t item_ready(const struct epitem *it)
{
	if (it->disabled || ((it->events & EPOLLET) && !it->pending))
		return 0;
	return file_poll(it->file) & it->events & ~(EPOLLET | EPOLLONESHOT | EPOLLWAKEUP | EPOLLEXCLUSIVE);
}

static uint32_t epoll_poll(struct file *f)
{
	struct epitem *it;

	for (it = ep_of(f)->items; it; it = it->next)
		if (item_ready(it))
			return POLLIN | POLLRDNORM;
	return 0;
}

static void epoll_release(struct file *f)
{
	struct eventpoll *ep = f->priv, **pp;

	for (pp = &all_eps; *pp; pp = &(*pp)->next) {
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	}
	while (ep->items) {
		struct epitem *it = ep->items;

		ep->items = it->next;
		kfree(it, sizeof(*it));
	}
	kfree(ep, sizeof(*ep));
	f->inode->nlink = 0; /* an anonymous node: file_put frees it */
}

static const struct file_ops epoll_ops = {.release = epoll_release, .poll = epoll_poll};

void epoll_event_of(const void *key, uint32_t events)
{
	struct eventpoll *ep;
	struct epitem *it;

	for (ep = all_eps; ep; ep = ep->next)
		for (it = ep->items; it; it = it->next)
			if ((!key || it->file->priv == key) && (!events || (events & it->events)))
				it->pending = true;
}

void epoll_file_gone(struct file *f)
{
	struct eventpoll *ep;
	struct epitem **pp;

	for (ep = all_eps; ep; ep = ep->next) {
		for (pp = &ep->items; *pp;) {
			struct epitem *it = *pp;

			if (it->file == f) {
				*pp = it->next;
				kfree(it, sizeof(*it));
			} else {
				pp = &it->next;
			}
		}
	}
}

static long do_epoll_create(uint64_t flags)
{
	struct inode *node;
	struct eventpoll *ep;
	struct file *f;
	int err, fd;

	if (flags & ~(uint64_t)EPOLL_CLOEXEC)
		return -EINVAL;
	node = kzalloc(sizeof(*node));
	ep = kzalloc(sizeof(*ep));
	if (!node || !ep) {
		kfree(node, sizeof(*node));
		kfree(ep, sizeof(*ep));
		return -ENOMEM;
	}
	node->ino = vfs_next_ino();
	node->mode = 0600; /* Linux's anonymous inode: no file type */
	node->nlink = 1;
	node->ops = &epoll_ops;
	f = file_open(node, O_RDWR, &err);
	if (!f) {
		kfree(ep, sizeof(*ep));
		node->nlink = 0;
		vfs_release(node);
		return err;
	}
	f->priv = ep;
	ep->next = all_eps;
	all_eps = ep;
	fd = fd_install(&current->files->t, f, 0, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		file_put(f);
	return fd;
}

SYSCALL_DEFINE1(epoll_create, int32_t, size)
{
	return size <= 0 ? -EINVAL : do_epoll_create(0);
}

SYSCALL_DEFINE1(epoll_create1, uint32_t, flags)
{
	return do_epoll_create(flags);
}

static struct epitem *find_item(struct eventpoll *ep, struct file *f, int fd)
{
	struct epitem *it;

	for (it = ep->items; it; it = it->next)
		if (it->file == f && it->fd == fd)
			return it;
	return 0;
}

/* How deep the epolls below ep go (1: ep alone), or -ELOOP when one of them is target. */
static int nest_depth(struct eventpoll *ep, const struct eventpoll *target, int level)
{
	struct epitem *it;
	int deepest = 1;

	if (ep == target)
		return -ELOOP;
	if (level > EP_MAX_NESTS)
		return -ELOOP;
	for (it = ep->items; it; it = it->next) {
		struct eventpoll *sub = ep_of(it->file);
		int d;

		if (!sub)
			continue;
		d = nest_depth(sub, target, level + 1);
		if (d < 0)
			return d;
		if (d + 1 > deepest)
			deepest = d + 1;
	}
	return deepest;
}

static long ctl_add(struct eventpoll *ep, struct file *f, int fd, const struct epoll_event_user *ev)
{
	struct eventpoll *sub = ep_of(f);
	struct epitem *it;

	if (find_item(ep, f, fd))
		return -EEXIST;
	if (sub && nest_depth(sub, ep, 1) < 0)
		return -ELOOP;
	it = kzalloc(sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->file = f;
	it->fd = fd;
	it->events = ev->events | POLLERR | POLLHUP;
	it->data = ev->data;
	it->pending = true; /* as Linux, readiness at insertion counts as an event */
	it->next = ep->items;
	ep->items = it;
	poll_notify(); /* a waiter on ep (or on an epoll holding it) re-checks */
	return 0;
}

SYSCALL_DEFINE4(epoll_ctl, int, epfd, int, op, int, fd, uint64_t, event)
{
	struct epoll_event_user ev = {0, 0};
	struct file *epf = fd_get(epfd), *f = fd_get(fd);
	struct eventpoll *ep;
	struct epitem *it;

	if (op != EPOLL_CTL_DEL && copy_from_user(&ev, event, sizeof(ev)))
		return -EFAULT;
	if (!epf || !f)
		return -EBADF;
	if (!f->ops || !f->ops->poll)
		return -EPERM;
	ep = ep_of(epf);
	if (!ep || f == epf)
		return -EINVAL;
	/* EPOLLEXCLUSIVE: only when adding, not on an epoll, not with EPOLLONESHOT. */
	if (op != EPOLL_CTL_DEL && (ev.events & EPOLLEXCLUSIVE) &&
	    (op == EPOLL_CTL_MOD || ep_of(f) || (ev.events & EPOLLONESHOT)))
		return -EINVAL;
	switch (op) {
	case EPOLL_CTL_ADD:
		return ctl_add(ep, f, fd, &ev);
	case EPOLL_CTL_DEL:
	case EPOLL_CTL_MOD:
		it = find_item(ep, f, fd);
		if (!it)
			return -ENOENT;
		if (op == EPOLL_CTL_MOD) {
			if (it->events & EPOLLEXCLUSIVE)
				return -EINVAL;
			it->events = ev.events | POLLERR | POLLHUP;
			it->data = ev.data;
			it->pending = true;
			it->disabled = false;
			poll_notify();
			return 0;
		}
		{
			struct epitem **pp;

			for (pp = &ep->items; *pp != it; pp = &(*pp)->next)
				;
			*pp = it->next;
			kfree(it, sizeof(*it));
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* Moves it to the end of ep's list: a level-triggered entry reported does not starve the rest. */
static void to_tail(struct eventpoll *ep, struct epitem *it)
{
	struct epitem **pp;

	for (pp = &ep->items; *pp != it; pp = &(*pp)->next)
		;
	*pp = it->next;
	it->next = 0;
	for (pp = &ep->items; *pp; pp = &(*pp)->next)
		;
	*pp = it;
}

/* Up to max ready entries into uevents: how many, or -EFAULT. */
static long collect(struct eventpoll *ep, uint64_t uevents, int max)
{
	struct epitem *it, *next, *reported[16];
	unsigned nrep = 0, i;
	long n = 0;

	for (it = ep->items; it && n < max; it = next) {
		struct epoll_event_user ev;

		next = it->next;
		ev.events = item_ready(it);
		if (!ev.events)
			continue;
		ev.data = it->data;
		if (copy_to_user(uevents + (uint64_t)n * sizeof(ev), &ev, sizeof(ev)))
			return n ? n : -EFAULT;
		n++;
		it->pending = false;
		if (it->events & EPOLLONESHOT)
			it->disabled = true;
		else if (!(it->events & EPOLLET) && nrep < ARRAY_SIZE(reported))
			reported[nrep++] = it;
	}
	for (i = 0; i < nrep; i++)
		to_tail(ep, reported[i]);
	return n;
}

static long do_epoll_wait(int epfd, uint64_t uevents, int64_t max, uint64_t deadline)
{
	struct file *f;
	struct eventpoll *ep;

	if (max <= 0 || (uint64_t)max > EP_MAX_EVENTS)
		return -EINVAL;
	if (!user_range_ok(uevents, (uint64_t)max * sizeof(struct epoll_event_user)))
		return -EFAULT;
	f = fd_get(epfd);
	if (!f)
		return -EBADF;
	ep = ep_of(f);
	if (!ep)
		return -EINVAL;
	for (;;) {
		long n = collect(ep, uevents, (int)max);
		int r;

		if (n)
			return n;
		r = poll_sleep(deadline);
		if (r == -ETIMEDOUT)
			return 0;
		if (r == -EINTR)
			return -EINTR;
		/* The epoll may have been closed by another thread meanwhile: look again. */
		if (fd_get(epfd) != f)
			return -EBADF;
	}
}

static uint64_t ms_deadline(int32_t ms)
{
	return poll_deadline(ms < 0 ? POLL_FOREVER : (uint64_t)ms * NSEC_PER_MSEC);
}

SYSCALL_DEFINE4(epoll_wait, int, epfd, uint64_t, events, int32_t, maxevents, int32_t, timeout)
{
	return do_epoll_wait(epfd, events, maxevents, ms_deadline(timeout));
}

static long pwait(uint64_t epfd, uint64_t uevents, uint64_t max, uint64_t deadline, uint64_t umask,
		  uint64_t size)
{
	int err = poll_sigmask_begin(umask, size);

	if (err)
		return err;
	return poll_sigmask_end(do_epoll_wait((int)epfd, uevents, (int32_t)max, deadline), -EINTR);
}

SYSCALL_DEFINE6(epoll_pwait, uint64_t, epfd, uint64_t, events, uint64_t, maxevents, int32_t,
		timeout, uint64_t, sigmask, uint64_t, sigsetsize)
{
	return pwait(epfd, events, maxevents, ms_deadline(timeout), sigmask, sigsetsize);
}

/* epoll_pwait2(epfd, events, maxevents, const struct timespec *timeout (NULL: forever), mask, size) */
SYSCALL_DEFINE6(epoll_pwait2, uint64_t, epfd, uint64_t, events, uint64_t, maxevents, uint64_t,
		timeout, uint64_t, sigmask, uint64_t, sigsetsize)
{
	struct {
		int64_t tv_sec, tv_nsec;
	} ts;
	uint64_t deadline = POLL_FOREVER;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (!timespec_valid(ts.tv_sec, ts.tv_nsec))
			return -EINVAL;
		deadline = poll_deadline(timespec_to_ns_sat(ts.tv_sec, ts.tv_nsec));
	}
	return pwait(epfd, events, maxevents, deadline, sigmask, sigsetsize);
}
