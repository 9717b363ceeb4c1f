/*
 * Output through io_uring and through write(2): every byte arrives, in
 * order, also when the reader is slow and writes come back short.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hostout.h"

#define TOTAL (1u << 20)

struct reader {
	int fd;
	unsigned char *got;
	size_t len;
};

static void *read_all(void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	while ((n = read(r->fd, r->got + r->len, TOTAL - r->len)) > 0) {
		r->len += (size_t)n;
		usleep(50); /* a slow reader: the pipe fills, writes come back short */
	}
	return NULL;
}

/* hostout writes to fds 1 and 2: put a small pipe on stdout for the test. */
static void pump(bool sync)
{
	static unsigned char src[TOTAL];
	struct reader r = {0};
	pthread_t t;
	int p[2], saved = dup(1);
	size_t off = 0, chunk = 1;

	for (size_t i = 0; i < TOTAL; i++)
		src[i] = (unsigned char)(i * 131 + (i >> 8));
	cr_assert_eq(pipe(p), 0);
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	r.fd = p[0];
	r.got = malloc(TOTAL);
	cr_assert(pthread_create(&t, NULL, read_all, &r) == 0);
	dup2(p[1], 1);
	close(p[1]);

	hostout_init(sync);
	cr_log_info("backend: %s", hostout_backend());
	while (off < TOTAL) {
		size_t n = chunk < TOTAL - off ? chunk : TOTAL - off;

		hostout_write(1, src + off, n);
		off += n;
		chunk = chunk * 7 % 5000 + 1;
	}
	hostout_flush();
	dup2(saved, 1); /* closes the pipe's write end: the reader sees EOF */
	pthread_join(t, NULL);
	cr_assert_eq(r.len, TOTAL, "%zu of %u bytes arrived", r.len, TOTAL);
	cr_expect(memcmp(r.got, src, TOTAL) == 0, "bytes out of order or changed");
	free(r.got);
}

Test(hostout, io_uring_in_order)
{
	pump(false);
	if (strcmp(hostout_backend(), "io_uring"))
		cr_log_warn("io_uring unavailable here (%s): the fallback was tested", hostout_backend());
}

Test(hostout, write_fallback_in_order)
{
	pump(true);
	cr_expect(!strncmp(hostout_backend(), "write(2)", 8));
}

/* Fails by timing out (or crashing) if a write to a vanished reader blocks or kills us. */
Test(hostout, dead_reader_does_not_hang, .timeout = 5)
{
	int p[2], saved = dup(1);

	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	dup2(p[1], 1);
	close(p[1]);
	hostout_init(false);
	hostout_write(1, "lost", 4);
	hostout_write(1, "lost too", 8);
	hostout_flush();
	dup2(saved, 1);
}

/*
 * A reader that never reads: 8 MiB written with a deadline 0.5 s away.  The
 * writes wait for the reader no longer than the deadline, the rest is
 * dropped and counted, and the queue never holds more than its cap.
 */
static void stalled(bool sync)
{
	static char chunk[64 << 10];
	struct hostout_stats st;
	struct timespec t0, d, t1;
	int p[2], saved = dup(1);
	double ms;

	cr_assert_eq(pipe(p), 0);
	signal(SIGPIPE, SIG_IGN); /* as main() does: the write in flight meets the closed pipe */
	dup2(p[1], 1);
	close(p[1]);
	hostout_init(sync);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	d = t0;
	d.tv_nsec += 500000000L;
	if (d.tv_nsec >= 1000000000L) {
		d.tv_sec++;
		d.tv_nsec -= 1000000000L;
	}
	hostout_set_deadline(&d);
	for (int i = 0; i < 128; i++)
		hostout_write(1, chunk, sizeof(chunk));
	cr_expect(!hostout_flush(), "a stalled reader must make the flush report dropped output");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	hostout_take_stats(&st);
	dup2(saved, 1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	cr_expect_lt(ms, 1500, "returned after %.0f ms; the deadline was 500 ms", ms);
	cr_expect_geq(ms, 450, "returned after %.0f ms, before the deadline", ms);
	cr_expect_eq(st.bytes, 128u * sizeof(chunk));
	cr_expect(st.stalled);
	/* At most the pipe (64 KiB), a flight and a queue of EL_HOSTOUT_QUEUE_CAP made it out. */
	cr_expect_gt(st.dropped, st.bytes - (3u << 20), "dropped %llu of %llu",
		     (unsigned long long)st.dropped, (unsigned long long)st.bytes);
	close(p[0]);
}

Test(hostout, stalled_reader_io_uring, .timeout = 10)
{
	stalled(false);
}

Test(hostout, stalled_reader_write_fallback, .timeout = 10)
{
	stalled(true);
}
