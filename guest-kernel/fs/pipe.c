/*
 * Pipes (pipe.h).  One CPU and a non-preemptible kernel: nothing runs
 * between a check and the copy that follows it, so the ring needs no lock,
 * and a write of at most PIPE_BUF bytes that finds room for all of them
 * lands in one piece even across a page (two copies, no sleep between).
 *
 * The readers and writers counts are open files of each end (fork and dup
 * share a file; its last close is one release).  Sleepers wait on
 * wait_data (readers) and wait_room (writers); every change wakes the side
 * it may unblock, and every sleeper re-checks its condition.
 */
#include "fs/pipe.h"
#include "fs/poll.h"
#include "mm/frame.h"
#include "mm/kmalloc.h"
#include "mm/layout.h"
#include "proc/process.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/uaccess.h"

#define PIPE_PAGES (PIPE_DEF_SIZE / PAGE_SIZE) /* 16 single frames: above FRAME_MAX_ORDER */

struct pipe {
	uint64_t pages[PIPE_PAGES]; /* the ring, page by page (frame addresses) */
	uint32_t head;             /* next byte to read */
	uint32_t count;            /* bytes waiting */
	uint32_t readers, writers; /* open files of each end (O_RDWR counts in both) */
	uint32_t r_counter, w_counter; /* opens of each end ever (a FIFO waits for the other's to move) */
	char wait_data, wait_room; /* sleep channels (their addresses) */
	struct inode *inode;
};

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The byte at ring index i; a copy from there may run to the end of its page. */
static uint8_t *ring_at(const struct pipe *p, size_t i)
{
	return (uint8_t *)phys_to_virt(p->pages[i / PAGE_SIZE]) + i % PAGE_SIZE;
}

static size_t page_left(size_t i)
{
	return PAGE_SIZE - i % PAGE_SIZE;
}

static void pipe_free(struct pipe *p)
{
	unsigned i;

	for (i = 0; i < PIPE_PAGES; i++)
		if (p->pages[i])
			frame_free(p->pages[i]);
	kfree(p, sizeof(*p));
}

/* Sleeps on chan: 0 to re-check, -ERESTARTSYS when a signal is pending. */
static int pipe_wait(void *chan)
{
	if (sched_block(chan, 0, true) == -EINTR && signal_pending(current))
		return -ERESTARTSYS;
	return 0;
}

static long pipe_read(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct pipe *p = f->priv;
	size_t done = 0;

	(void)off;
	if (!len)
		return 0;
	while (!p->count) {
		if (!p->writers)
			return 0; /* EOF */
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		if (pipe_wait(&p->wait_data))
			return -ERESTARTSYS;
	}
	while (done < len && p->count) {
		size_t n = min_sz(min_sz(len - done, p->count), page_left(p->head));

		if (copy_to_user(ubuf + done, ring_at(p, p->head), n))
			break;
		p->head = (uint32_t)((p->head + n) % PIPE_DEF_SIZE);
		p->count -= (uint32_t)n;
		done += n;
	}
	if (!p->count)
		p->head = 0;
	if (done) {
		wake_up(&p->wait_room);
		poll_notify_key(p, POLLOUT | POLLWRNORM);
	}
	return done ? (long)done : -EFAULT;
}

/* As Linux's send_sig(SIGPIPE, current, 0): thread-directed, SI_USER from itself. */
static void pipe_sigpipe(void)
{
	struct ksiginfo info = {.signo = SIGPIPE, .code = SI_USER, .pid = current->tgid};

	signal_send(current, SIGPIPE, &info, false);
}

static long pipe_write(struct file *f, uint64_t ubuf, size_t len, uint64_t off)
{
	struct pipe *p = f->priv;
	/* Up to PIPE_BUF bytes wait for room for all of them; more go in as room appears. */
	size_t done = 0, need = len <= PIPE_BUF ? len : 1;

	(void)off;
	if (!len)
		return 0;
	for (;;) {
		size_t room, tail, n;

		if (!p->readers) {
			pipe_sigpipe();
			return done ? (long)done : -EPIPE;
		}
		room = PIPE_DEF_SIZE - p->count;
		if (room >= need || (done && room)) {
			tail = (p->head + p->count) % PIPE_DEF_SIZE;
			n = min_sz(min_sz(room, len - done), page_left(tail));
			if (copy_from_user(ring_at(p, tail), ubuf + done, n))
				return done ? (long)done : -EFAULT;
			p->count += (uint32_t)n;
			done += n;
			wake_up(&p->wait_data);
			poll_notify_key(p, POLLIN | POLLRDNORM);
			if (done == len)
				return (long)done;
			continue;
		}
		if (f->flags & O_NONBLOCK)
			return done ? (long)done : -EAGAIN;
		if (pipe_wait(&p->wait_room))
			return done ? (long)done : -ERESTARTSYS;
	}
}

/* The last close of one end: the other side learns (EOF, EPIPE); the last of both frees. */
static void pipe_release(struct file *f)
{
	struct pipe *p = f->priv;

	if (file_readable(f))
		p->readers--;
	if (file_writable(f))
		p->writers--;
	wake_up(&p->wait_data);
	wake_up(&p->wait_room);
	poll_notify_key(p, 0);
	if (p->readers || p->writers)
		return;
	if (p->inode->parent && p->inode->pipe == p)
		p->inode->pipe = 0; /* a FIFO keeps its name; the next open brings a new pipe */
	else
		p->inode->nlink = 0; /* file_put frees the node after this */
	pipe_free(p);
}

/* As Linux's pipe_poll: POLLHUP once every writer has gone (a FIFO: one that came after us). */
static uint32_t pipe_poll(struct file *f)
{
	struct pipe *p = f->priv;
	uint32_t mask = 0;

	if (file_readable(f)) {
		if (p->count)
			mask |= POLLIN | POLLRDNORM;
		if (!p->writers && f->version != p->w_counter)
			mask |= POLLHUP;
	}
	if (file_writable(f)) {
		if (PIPE_DEF_SIZE - p->count >= PIPE_BUF) /* Linux: a free page slot */
			mask |= POLLOUT | POLLWRNORM;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

static const struct file_ops pipe_ops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.poll = pipe_poll,
};

static struct pipe *pipe_alloc(struct inode *node)
{
	struct pipe *p = kzalloc(sizeof(*p));
	unsigned i;

	for (i = 0; p && i < PIPE_PAGES; i++) {
		if (!(p->pages[i] = frame_alloc())) {
			pipe_free(p);
			return 0;
		}
	}
	if (p)
		p->inode = node;
	return p;
}

int pipe_create(uint32_t flags, struct file **rd, struct file **wr)
{
	struct inode *node = kzalloc(sizeof(*node));
	struct pipe *p = node ? pipe_alloc(node) : 0;
	int err = -ENOMEM;

	if (!p) {
		kfree(node, sizeof(*node));
		return -ENOMEM;
	}
	node->ino = vfs_next_ino();
	node->mode = S_IFIFO | 0600;
	node->nlink = 1;
	node->ops = &pipe_ops;
	*rd = file_open(node, O_RDONLY | (flags & O_NONBLOCK), &err);
	if (!*rd)
		goto fail;
	(*rd)->priv = p;
	p->readers = p->r_counter = 1;
	*wr = file_open(node, O_WRONLY | (flags & O_NONBLOCK), &err);
	if (!*wr) {
		file_put(*rd); /* the release frees the pipe and, with it, the node */
		return err;
	}
	(*wr)->priv = p;
	p->writers = p->w_counter = 1;
	/* Reopened through /proc/PID/fd/N (bash's <(...)): a FIFO open of this pipe, as on Linux. */
	node->pipe = p;
	node->ops = &fifo_ops;
	return 0;
fail:
	pipe_free(p);
	node->nlink = 0;
	vfs_release(node);
	return err;
}

/* Sleeps until *counter moves off seen: 0, or -ERESTARTSYS (a signal). */
static int fifo_wait_partner(struct pipe *p, const uint32_t *counter)
{
	uint32_t seen = *counter;

	while (*counter == seen)
		if (pipe_wait(&p->wait_data))
			return -ERESTARTSYS;
	return 0;
}

/*
 * fifo(7) as Linux's fifo_open: the opener of one end waits for the other's
 * first open.  An anonymous pipe reopened through /proc/PID/fd/N (no name:
 * Linux's is_pipe) never waits and is never ENXIO: its other end may have
 * come and gone already (bash's <(...) read after the writer exited).
 */
static int fifo_open(struct file *f)
{
	struct inode *node = f->inode;
	struct pipe *p = node->pipe;
	bool nonblock = f->flags & O_NONBLOCK, named = node->name != 0;
	int err = 0;

	if (named && (f->flags & O_ACCMODE) == O_WRONLY && nonblock && !(p && p->readers))
		return -ENXIO;
	if (!p && !(p = node->pipe = pipe_alloc(node)))
		return -ENOMEM;
	f->priv = p;
	f->ops = &pipe_ops; /* from here on it is a pipe end: reads, writes, poll, release */
	switch (f->flags & O_ACCMODE) {
	case O_RDONLY:
		p->readers++, p->r_counter++;
		if (named && !p->writers) {
			if (nonblock)
				f->version = p->w_counter; /* no POLLHUP before a writer came and went */
			else
				err = fifo_wait_partner(p, &p->w_counter);
		}
		break;
	case O_WRONLY:
		p->writers++, p->w_counter++;
		if (named && !p->readers)
			err = fifo_wait_partner(p, &p->r_counter);
		break;
	default: /* O_RDWR: never waits, as on Linux (POSIX leaves it undefined) */
		p->readers++, p->r_counter++;
		p->writers++, p->w_counter++;
		break;
	}
	wake_up(&p->wait_data); /* a partner waiting in open, and readers or writers waiting for data */
	wake_up(&p->wait_room);
	poll_notify_key(p, 0);
	/* An interrupted wait: file_open's file_put runs pipe_release, which undoes our count. */
	return err;
}

const struct file_ops fifo_ops = {
	.open = fifo_open,
};

long pipe_size(const struct file *f)
{
	return f->ops == &pipe_ops ? PIPE_DEF_SIZE : -EBADF;
}

long pipe_unread(const struct file *f)
{
	return f->ops == &pipe_ops ? (long)((const struct pipe *)f->priv)->count : -ENOTTY;
}

long pipe_set_size(const struct file *f, uint64_t size)
{
	uint64_t rounded = PAGE_SIZE;

	if (f->ops != &pipe_ops)
		return -EBADF;
	if (size > (1ull << 31))
		return -EINVAL;
	while (rounded < size)
		rounded <<= 1;
	return rounded == PIPE_DEF_SIZE ? PIPE_DEF_SIZE : -EPERM;
}
