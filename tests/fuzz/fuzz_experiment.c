/*
 * Fuzz target: the experiment parser and checker (harness/matrix/
 * experiment_parse.c, experiment_check.c) through experiment_load, on the
 * input as an in-memory file (memfd, /proc/self/fd/N).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "experiment.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct el_experiment exp;
	char path[64];
	int fd = memfd_create("experiment.ini", 0);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	experiment_load(path, &exp, devnull);
	experiment_free(&exp);
	close(fd);
	return 0;
}
