/*
 * pipe: a one-byte ping-pong between two processes over two pipes, the shape
 * of lmbench's lat_pipe and lat_ctx.  One iteration is one round trip: the
 * parent writes a byte into the first pipe and blocks reading the second;
 * the child, blocked reading the first, wakes, reads it and writes it back.
 * So a round trip is four syscalls (a write and a read on each side), two
 * blocks and two context switches between address spaces: the path PTI,
 * PCID and global pages change most.
 *
 * The child is forked and has made one round trip before the region begins,
 * so the region holds no fork, exec or first-touch fault; it exits after the
 * last one and is reaped outside the region.
 *
 * What is counted: on our kernel (counters and trace) and under `entrylab
 * trace` on Linux, everything between the markers: both processes and the
 * kernel.  With `--guest linux` the PMU counters follow the measuring
 * process (the parent) and the kernel work done on its behalf, not the
 * child's; compare the two kernels under `trace`, which counts both sides.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "pipe",
	.synopsis = "[ROUNDTRIPS]",
	.help = "  ROUNDTRIPS  one-byte round trips between parent and child (default 10000);\n"
		"              each is 4 syscalls and 2 context switches\n",
	.max_args = 1,
};

/* Moves one byte: 0 or the errno of a short or failed transfer (EPIPE: the peer left). */
static int bounce(int rd, int wr, char *c, int write_first)
{
	if (write_first && write(wr, c, 1) != 1)
		return errno ? errno : EPIPE;
	if (read(rd, c, 1) != 1)
		return errno ? errno : EPIPE;
	if (!write_first && write(wr, c, 1) != 1)
		return errno ? errno : EPIPE;
	return 0;
}

/* The child: echoes n + 1 bytes (the warm-up and n round trips), then exits. */
static _Noreturn void echo(int rd, int wr, uint64_t n)
{
	char c;

	for (uint64_t i = 0; i <= n; i++)
		if (bounce(rd, wr, &c, 0))
			_exit(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], status = 0, err = 0;
	uint64_t n, i = 0, t0, t1;
	char c = 'x';
	pid_t child;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 10000);

	if (pipe(ping) || pipe(pong)) {
		fprintf(stderr, "pipe: pipe(): %s\n", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN); /* a child that died is an EPIPE to report, not a kill */
	child = fork();
	if (child < 0) {
		fprintf(stderr, "pipe: fork(): %s\n", strerror(errno));
		return 1;
	}
	if (child == 0) {
		close(ping[1]);
		close(pong[0]);
		echo(ping[0], pong[1], n);
	}
	close(ping[0]);
	close(pong[1]);

	/* Warm-up: the child runs, has faulted its stack in and blocks in read. */
	err = bounce(pong[0], ping[1], &c, 1);

	t0 = el_now_ns();
	el_region_begin(n);
	for (; i < n && !err; i++)
		err = bounce(pong[0], ping[1], &c, 1);
	el_region_end();
	t1 = el_now_ns();

	close(ping[1]);
	close(pong[0]);
	if (waitpid(child, &status, 0) != child) {
		fprintf(stderr, "pipe: waitpid(): %s\n", strerror(errno));
		return 1;
	}
	if (err)
		fprintf(stderr, "pipe: round trip %llu of %llu failed: %s\n", (unsigned long long)i,
			(unsigned long long)n, strerror(err));
	el_result(&bench, n, t1 - t0, "roundtrips=%llu child_status=%d", (unsigned long long)i,
		  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return err || !WIFEXITED(status) || WEXITSTATUS(status);
}
