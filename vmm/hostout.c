/*
 * Output through io_uring with a write(2) fallback (see hostout.h).
 *
 * Per fd a queue of bytes and at most one write in flight: io_uring may run
 * two writes to the same pipe concurrently, and the program's output must
 * arrive in order.  A short write resubmits the rest; an error (EPIPE: the
 * reader went away) drops that fd's output, as the record keeps the console.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"
#include "hostout.h"

#define HOSTOUT_FDS 3 /* 0: unused, 1: stdout, 2: stderr; others go straight to write(2) */

struct hostout_stream {
	char *queued;        /* bytes waiting for the write in flight */
	size_t queued_len, queued_cap;
	char *inflight;      /* owned by the kernel until its completion */
	size_t inflight_len, inflight_done, inflight_cap;
	bool busy, dead;
};

static struct io_uring ring;
static bool use_uring;
static bool ready;
static char why_sync[128] = "not initialised";
static struct hostout_stream streams[HOSTOUT_FDS];

void hostout_init(bool force_sync)
{
	int rc;

	if (ready)
		return;
	ready = true;
	if (force_sync) {
		snprintf(why_sync, sizeof(why_sync), "requested");
		return;
	}
	rc = io_uring_queue_init(16, &ring, 0);
	if (rc < 0) {
		snprintf(why_sync, sizeof(why_sync), "io_uring_queue_init: %s", strerror(-rc));
		return;
	}
	use_uring = true;
}

const char *hostout_backend(void)
{
	static char buf[160];

	if (use_uring)
		return "io_uring";
	snprintf(buf, sizeof(buf), "write(2): %s", why_sync);
	return buf;
}

static void submit(int fd)
{
	struct hostout_stream *s = &streams[fd];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

	if (!sqe) { /* cannot happen with one write per fd in flight; stay correct anyway */
		/* a reader that went away only loses the output */
		(void)io_write_all(fd, s->inflight + s->inflight_done, s->inflight_len - s->inflight_done);
		s->inflight_done = s->inflight_len;
		return;
	}
	/* Offset -1: the file position, as write(2) (IORING_FEAT_RW_CUR_POS). */
	io_uring_prep_write(sqe, fd, s->inflight + s->inflight_done,
			    (unsigned)(s->inflight_len - s->inflight_done), (uint64_t)-1);
	io_uring_sqe_set_data64(sqe, (uint64_t)fd);
	s->busy = true;
	io_uring_submit(&ring);
}

/* Moves the queue into flight if nothing is. */
static void start(int fd)
{
	struct hostout_stream *s = &streams[fd];
	char *t;
	size_t cap;

	if (s->busy || s->dead || !s->queued_len)
		return;
	/* Swap the buffers: the queue goes into flight, the old flight buffer is reused. */
	t = s->inflight;
	cap = s->inflight_cap;
	s->inflight = s->queued;
	s->inflight_cap = s->queued_cap;
	s->inflight_len = s->queued_len;
	s->inflight_done = 0;
	s->queued = t;
	s->queued_cap = cap;
	s->queued_len = 0;
	submit(fd);
}

static void complete(struct io_uring_cqe *cqe)
{
	int fd = (int)io_uring_cqe_get_data64(cqe);
	struct hostout_stream *s = &streams[fd];

	s->busy = false;
	if (cqe->res < 0 && cqe->res != -EINTR && cqe->res != -EAGAIN) {
		s->dead = true; /* EPIPE and friends: drop this fd's output */
		s->queued_len = 0;
		return;
	}
	if (cqe->res > 0)
		s->inflight_done += (size_t)cqe->res;
	if (s->inflight_done < s->inflight_len)
		submit(fd);
	else
		start(fd);
}

static void reap(bool wait)
{
	struct io_uring_cqe *cqe;

	for (;;) {
		int rc = wait ? io_uring_wait_cqe(&ring, &cqe) : io_uring_peek_cqe(&ring, &cqe);

		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return;
		complete(cqe);
		io_uring_cqe_seen(&ring, cqe);
		wait = false;
	}
}

void hostout_write(int fd, const void *buf, size_t len)
{
	struct hostout_stream *s;

	if (!len)
		return;
	if (!ready)
		hostout_init(false);
	if (!use_uring || fd <= 0 || fd >= HOSTOUT_FDS) {
		(void)io_write_all(fd, buf, len);
		return;
	}
	s = &streams[fd];
	reap(false);
	if (s->dead)
		return;
	if (s->queued_len + len > s->queued_cap) {
		size_t cap = s->queued_cap ? s->queued_cap : 4096;
		char *p;

		while (cap < s->queued_len + len)
			cap *= 2;
		p = realloc(s->queued, cap);
		if (!p) {
			(void)io_write_all(fd, buf, len); /* no memory: slow but in order after a flush */
			return;
		}
		s->queued = p;
		s->queued_cap = cap;
	}
	memcpy(s->queued + s->queued_len, buf, len);
	s->queued_len += len;
	start(fd);
}

void hostout_flush(void)
{
	bool pending;

	if (!use_uring)
		return;
	do {
		pending = false;
		for (int fd = 1; fd < HOSTOUT_FDS; fd++) {
			start(fd);
			pending = pending || streams[fd].busy;
		}
		if (pending)
			reap(true);
	} while (pending);
}

void hostout_confined(void)
{
	if (use_uring) {
		hostout_flush();
		io_uring_queue_exit(&ring);
	}
	use_uring = false;
	ready = true;
	snprintf(why_sync, sizeof(why_sync), "confined: io_uring operations bypass seccomp");
}
