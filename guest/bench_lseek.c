/* lseek: lseek(fd, 0, SEEK_SET) on a temporary file, will-it-scale's lseek1 (seed 002). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/bench.h"
#include "lib/region.h"

static const struct el_bench bench = {
	.name = "lseek",
	.synopsis = "[ITERATIONS]",
	.help = "  ITERATIONS  lseek calls in the measured loop (default 10000)\n"
		"  The file is /tmp/entrylab-lseek.PID, removed at once on Linux; the entrylab\n"
		"  kernel's /tmp lives in memory and has no unlink.\n",
	.max_args = 1,
};

int main(int argc, char **argv)
{
	static const char data[] = "entrylab lseek benchmark\n";
	uint64_t n, errors = 0, t0, t1;
	char path[64];
	int fd;

	el_bench_start(&bench, argc, argv);
	n = el_arg_count(&bench, argc, argv, 1, 10000);

	snprintf(path, sizeof(path), "/tmp/entrylab-lseek.%d", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "lseek: cannot create %s: %s (is /tmp writable?)\n", path,
			strerror(errno));
		return 1;
	}
	if (write(fd, data, sizeof(data) - 1) != (ssize_t)sizeof(data) - 1) {
		fprintf(stderr, "lseek: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!el_entrylab())
		unlink(path);

	t0 = el_now_ns();
	el_region_begin(n);
	for (uint64_t i = 0; i < n; i++)
		errors += lseek(fd, 0, SEEK_SET) != 0;
	el_region_end();
	t1 = el_now_ns();

	close(fd);
	el_result(&bench, n, t1 - t0, "errors=%llu", (unsigned long long)errors);
	return errors != 0;
}
