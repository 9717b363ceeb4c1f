/*
 * The inner command's stdout and stderr, passed on to ours (nested_priv.h,
 * struct nested_sink) as a pipe would: the session reads a port only when
 * its sink holds nothing, so a reader that is slow makes the command wait
 * (backpressure through the socket, QEMU and the port), and nothing is
 * dropped while the command runs.  Our pump never blocks on a pipe: after
 * POLLOUT a pipe takes PIPE_BUF bytes without blocking; a file or a
 * terminal takes whatever it is given.
 *
 * Dropped, and counted for the one note at the end, is only: what a closed
 * reader could not take (EPIPE), and, once the command has ended, what a
 * reader that took nothing for NESTED_STALL_MS left (the command's own
 * deadline has passed by then: `run` dropped and counted its part too).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nested_priv.h"

void nested_sink_init(struct nested_sink *k, int fd, const char *name)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	k->fd = fd;
	k->name = name;
	k->chunked = fstat(fd, &st) < 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
	k->last_progress = nested_now_s();
}

void nested_sink_put(void *ctx, const char *data, size_t len)
{
	struct nested_sink *k = ctx;

	if (k->discarding || k->broken) {
		k->dropped += len;
		return;
	}
	if (k->off == k->len)
		k->off = k->len = 0;
	if (len > sizeof(k->buf) - k->len) {
		/* The session reads only into an empty sink: this cannot happen; count it. */
		k->dropped += len - (sizeof(k->buf) - k->len);
		len = sizeof(k->buf) - k->len;
	}
	memcpy(k->buf + k->len, data, len);
	k->len += len;
}

bool nested_sink_pending(const struct nested_sink *k)
{
	return k->off < k->len;
}

void nested_sink_flush(struct nested_sink *k)
{
	while (nested_sink_pending(k)) {
		size_t n = k->len - k->off;
		ssize_t w;

		if (k->chunked) {
			struct pollfd p = {.fd = k->fd, .events = POLLOUT};

			if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLOUT | POLLERR)))
				return;
			n = n < PIPE_BUF ? n : PIPE_BUF;
		}
		w = write(k->fd, k->buf + k->off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) {
			/* A closed reader must not stop the run: the rest is dropped. */
			k->broken = true;
			k->dropped += k->len - k->off;
			k->off = k->len = 0;
			return;
		}
		k->off += (size_t)w;
		k->passed += (uint64_t)w;
		k->last_progress = nested_now_s();
	}
}

void nested_sink_give_up(struct nested_sink *k)
{
	k->discarding = true;
	k->dropped += k->len - k->off;
	k->off = k->len = 0;
}

bool nested_sink_note(const struct nested_sink *k, char *buf, size_t cap)
{
	if (!k->dropped)
		return false;
	snprintf(buf, cap, "the nested VM's %s: passed on %llu bytes, dropped %llu %s", k->name,
		 (unsigned long long)k->passed, (unsigned long long)k->dropped,
		 k->broken ? "after it was closed"
			   : "after the command ended while it was not read (stalled reader)");
	return true;
}
