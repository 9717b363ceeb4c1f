/*
 * filecheck's entry and shared helpers (filecheck.h): each area runs in a
 * fresh directory made under /tmp, removed afterwards by the area itself
 * only in part (a failed check may leave files: they are in a directory of
 * their own).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "filecheck.h"

bool fc_write_file(const char *name, const char *s)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len = strlen(s);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, s, len) == (ssize_t)len;
	return close(fd) == 0 && ok;
}

long fc_read_file(const char *name, char *buf, size_t len)
{
	int fd = open(name, O_RDONLY);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

int fc_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

void fc_sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000l};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Runs one area in a new directory under /tmp. */
static void in_fresh_dir(const char *area, void (*fn)(void))
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/filecheck-%s.XXXXXX", area);
	if (!mkdtemp(dir) || chdir(dir)) {
		el_fail(area, "cannot make and enter %s: %s", dir, strerror(errno));
		return;
	}
	fn();
	if (chdir("/"))
		el_fail(area, "chdir /: %s", strerror(errno));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	in_fresh_dir("attr", filecheck_attr);
	in_fresh_dir("names", filecheck_names);
	in_fresh_dir("dev", filecheck_dev);
	in_fresh_dir("shm", filecheck_shm);
	in_fresh_dir("lock", filecheck_lock);
	return el_summary("filecheck");
}
