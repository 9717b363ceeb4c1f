/*
 * The VMM's output while a guest runs (the program's stdout/stderr, the
 * guest console with -v): handed to io_uring so the vCPU thread goes back
 * into KVM_RUN instead of waiting for a terminal or a pipe.  Writes to one
 * fd stay in order (one write in flight per fd, the rest queued).  Where
 * io_uring is unavailable (kernel.io_uring_disabled, seccomp'd containers)
 * the same calls fall back to write(2), and hostout_backend() says which.
 * Memory is bounded (EL_HOSTOUT_QUEUE_CAP per fd): a stalled reader makes
 * the writer wait, up to the deadline; after it, that output is dropped and
 * counted (hostout_take_stats).
 */
#ifndef EL_HOSTOUT_H
#define EL_HOSTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct hostout_stats {
	uint64_t bytes;   /* handed to hostout_write */
	uint64_t dropped; /* of those, never written: the reader stalled past the deadline */
	bool stalled;     /* some fd was given up at the deadline */
};

/* Picks the backend: io_uring unless force_sync or it cannot be set up. */
void hostout_init(bool force_sync);
/* Queues len bytes for fd (copied: the caller's buffer is free on return). */
void hostout_write(int fd, const void *buf, size_t len);
/* Waits until everything queued is written, the fd is gone or the deadline
 * passes; false if some output was dropped at the deadline. */
bool hostout_flush(void);
/* The run's deadline (CLOCK_MONOTONIC, absolute; NULL: none) for every wait
 * on a reader; also forgets which fds stalled under the previous one. */
void hostout_set_deadline(const struct timespec *when);
/* The counts since the last call, then zeroes them. */
void hostout_take_stats(struct hostout_stats *out);
/*
 * The confined VMM (vmm/jail.c, in its child): write(2) from here on, the
 * ring closed, since io_uring operations are not checked by seccomp.
 */
void hostout_confined(void);
/* "io_uring" or "write(2): <why>". */
const char *hostout_backend(void);

#endif
