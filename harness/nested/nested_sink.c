/*
 * Forwarding the nested VM's guest output to the host's stdout and stderr
 * (nested_priv.h, struct nested_sink) without ever blocking the pump: the
 * session's one deadline must hold whoever reads (or does not read) our
 * output.  Policy: at most EL_NESTED_STREAM_CAP bytes per destination are
 * passed on; a destination that takes nothing for NESTED_STALL_MS is
 * stalled and gets nothing more; what is not passed on is read from the VM
 * all the same (so it never blocks) and counted, and the session prints
 * one note saying how much was dropped and why.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "el_limits.h"
#include "nested_priv.h"

void nested_sink_init(struct nested_sink *k, int fd, const char *name)
{
	*k = (struct nested_sink){.fd = fd, .name = name, .cap = EL_NESTED_STREAM_CAP};
}

/*
 * Waits up to NESTED_STALL_MS, and never past the deadline, for fd to take
 * bytes; false if it does not.
 */
static bool sink_writable(int fd, double deadline)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	double left_ms = deadline > 0 ? (deadline - nested_now_s()) * 1000 : NESTED_STALL_MS;
	int rc, ms = left_ms < NESTED_STALL_MS ? (int)left_ms : NESTED_STALL_MS;

	do
		rc = poll(&p, 1, ms > 0 ? ms : 0);
	while (rc < 0 && errno == EINTR);
	return rc > 0 && !(p.revents & (POLLERR | POLLNVAL)) && (p.revents & POLLOUT);
}

void nested_sink_write(struct nested_sink *k, const char *data, size_t len)
{
	size_t room = k->passed < k->cap ? k->cap - k->passed : 0;

	if (len > room) {
		k->dropped_cap += len - room;
		len = room;
	}
	while (len && !k->stalled && !k->broken) {
		/* PIPE_BUF at a time: after POLLOUT a pipe takes that much without blocking. */
		size_t n = len < 4096 ? len : 4096;
		ssize_t w;

		if (!sink_writable(k->fd, k->deadline)) {
			k->stalled = true;
			break;
		}
		w = write(k->fd, data, n);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w <= 0) {
			k->broken = true; /* a closed pipe must not stop the run */
			break;
		}
		k->passed += (uint64_t)w;
		data += w;
		len -= (size_t)w;
	}
	k->dropped_stall += len;
}

bool nested_sink_note(const struct nested_sink *k, char *buf, size_t cap)
{
	if (!k->dropped_cap && !k->dropped_stall)
		return false;
	snprintf(buf, cap,
		 "the nested VM's %s: passed on %llu bytes, dropped %llu over the "
		 "%u MiB cap and %llu %s",
		 k->name, (unsigned long long)k->passed, (unsigned long long)k->dropped_cap,
		 (unsigned)(k->cap >> 20), (unsigned long long)k->dropped_stall,
		 k->broken ? "after it was closed" : "while it was not read (stalled reader)");
	return true;
}
