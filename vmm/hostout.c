/*
 * Output through io_uring with a write(2) fallback (see hostout.h).
 *
 * Per fd a queue of bytes and at most one write in flight: io_uring may run
 * two writes to the same pipe concurrently, and the program's output must
 * arrive in order.  A short write resubmits the rest; an error (EPIPE: the
 * reader went away) drops that fd's output, as the record keeps the console.
 *
 * Bounded: a queue holds at most EL_HOSTOUT_QUEUE_CAP bytes (output_cap.h).
 * A write that would go beyond waits (the vCPU waits with it) for the
 * reader, until the run's deadline; once that has passed the fd is stalled:
 * its output is dropped and counted, and the fd is made O_NONBLOCK so that
 * nothing printed later (the CLI's summary) can block on it either.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_io.h"
#include "hostout.h"
#include "output_cap.h"

#define HOSTOUT_FDS 3 /* 0: unused, 1: stdout, 2: stderr; others go straight to write(2) */

struct hostout_stream {
	char *queued;        /* bytes waiting for the write in flight */
	size_t queued_len, queued_cap;
	char *inflight;      /* owned by the kernel until its completion */
	size_t inflight_len, inflight_done, inflight_cap;
	bool busy, dead;
	bool stalled;        /* the deadline passed with the reader not reading */
};

static struct io_uring ring;
static bool use_uring;
static bool ready;
static char why_sync[128] = "not initialised";
static struct hostout_stream streams[HOSTOUT_FDS];
static struct timespec deadline; /* CLOCK_MONOTONIC; 0: none */
static struct hostout_stats stats;

void hostout_set_deadline(const struct timespec *when)
{
	deadline = when ? *when : (struct timespec){0};
	for (int fd = 0; fd < HOSTOUT_FDS; fd++)
		streams[fd].stalled = false;
}

void hostout_take_stats(struct hostout_stats *out)
{
	*out = stats;
	stats = (struct hostout_stats){0};
}

/* Milliseconds to the deadline: -1 none, 0 passed. */
static int left_ms(void)
{
	struct timespec now;
	double ms;

	if (!deadline.tv_sec && !deadline.tv_nsec)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (double)(deadline.tv_sec - now.tv_sec) * 1e3 +
	     (double)(deadline.tv_nsec - now.tv_nsec) / 1e6;
	return ms <= 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms + 1;
}

/* The deadline passed with fd not drained: drop what is queued, never block on fd again. */
static void stall(int fd, size_t more)
{
	struct hostout_stream *s = fd < HOSTOUT_FDS ? &streams[fd] : NULL;
	int fl = fcntl(fd, F_GETFL);

	if (s) {
		stats.dropped += s->queued_len + (s->busy ? s->inflight_len - s->inflight_done : 0);
		s->queued_len = 0;
		s->stalled = true;
	}
	stats.dropped += more;
	stats.stalled = true;
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/*
 * How much one write(2) after POLLOUT may carry without blocking: PIPE_BUF
 * for a pipe or socket (all POLLOUT promises), anything for the rest (a
 * file, a terminal, the nested runner's virtio port, which takes what it
 * has room for and returns short).
 */
static size_t write_unit(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ? PIPE_BUF
										 : SIZE_MAX;
}

/* write(2) that waits for the reader (poll) no longer than the deadline. */
static void sync_write(int fd, const char *p, size_t len)
{
	const size_t unit = write_unit(fd);

	while (len) {
		struct pollfd pf = {.fd = fd, .events = POLLOUT};
		int rc = poll(&pf, 1, left_ms());
		ssize_t n;

		if (rc < 0 && errno == EINTR)
			continue; /* the --timeout signal: look at the deadline again */
		if (rc == 0) {
			stall(fd, len);
			return;
		}
		if (rc < 0 || (pf.revents & (POLLERR | POLLNVAL)))
			return; /* the reader went away: the output is lost, as with EPIPE */
		/* POLLOUT promises room for a unit: a write that size never blocks. */
		n = write(fd, p, len < unit ? len : unit);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

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
	if (s->stalled)
		return; /* its output is already counted as dropped */
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

/* Completions; with wait, blocks for the first one until the deadline (false: it passed). */
static bool reap(bool wait)
{
	struct io_uring_cqe *cqe;

	for (;;) {
		int ms = wait ? left_ms() : 0, rc;

		if (wait && ms == 0)
			return false;
		if (!wait) {
			rc = io_uring_peek_cqe(&ring, &cqe);
		} else if (ms < 0) {
			rc = io_uring_wait_cqe(&ring, &cqe);
		} else {
			struct __kernel_timespec ts = {.tv_sec = ms / 1000,
						       .tv_nsec = (ms % 1000) * 1000000LL};

			rc = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
		}
		if (rc == -EINTR || (wait && rc == -ETIME))
			continue; /* the loop looks at the deadline */
		if (rc < 0)
			return true;
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
	stats.bytes += len;
	if (fd > 0 && fd < HOSTOUT_FDS && streams[fd].stalled) {
		stats.dropped += len;
		return;
	}
	if (!use_uring || fd <= 0 || fd >= HOSTOUT_FDS) {
		sync_write(fd, buf, len);
		return;
	}
	s = &streams[fd];
	reap(false);
	/* Full: wait for the reader (the write in flight to complete) up to the deadline. */
	while (!s->dead && s->busy && s->queued_len && s->queued_len + len > EL_HOSTOUT_QUEUE_CAP) {
		if (!reap(true)) {
			stall(fd, len);
			return;
		}
	}
	if (s->dead)
		return;
	if (s->queued_len + len > s->queued_cap) {
		size_t cap = s->queued_cap ? s->queued_cap : 4096;
		char *p;

		while (cap < s->queued_len + len)
			cap *= 2;
		p = realloc(s->queued, cap);
		if (!p) {
			stats.dropped += len; /* no memory: dropped, counted */
			return;
		}
		s->queued = p;
		s->queued_cap = cap;
	}
	memcpy(s->queued + s->queued_len, buf, len);
	s->queued_len += len;
	start(fd);
}

bool hostout_flush(void)
{
	bool pending;

	if (!use_uring)
		return !stats.stalled;
	do {
		pending = false;
		for (int fd = 1; fd < HOSTOUT_FDS; fd++) {
			start(fd);
			pending = pending || (streams[fd].busy && !streams[fd].stalled);
		}
		if (pending && !reap(true)) {
			for (int fd = 1; fd < HOSTOUT_FDS; fd++)
				if (streams[fd].busy && !streams[fd].stalled)
					stall(fd, 0);
			return false;
		}
	} while (pending);
	return !stats.stalled;
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
