/*
 * Host file helpers (host_io.h): the one place that loops over write(2),
 * reads whole files and appends lines atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_io.h"

bool io_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

char *io_read_fd(int fd, size_t *len)
{
	size_t used = 0, cap = 1 << 16;
	char *buf = malloc(cap), *nb;
	ssize_t n;

	while (buf) {
		n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (cap - used < 2) {
			nb = cap < SIZE_MAX / 2 ? realloc(buf, cap *= 2) : NULL;
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (buf) {
		buf[used] = '\0';
		if (len)
			*len = used;
	}
	return buf;
}

char *io_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0, want;
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot read %s: %s; give the path of a file", path,
			 fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(err, errlen, "%s is %lld bytes, more than the %zu this takes", path,
			 (long long)st.st_size, max);
		close(fd);
		return NULL;
	}
	want = (size_t)st.st_size;
	buf = malloc(want + 1);
	while (buf && got < want) {
		ssize_t n = read(fd, buf + got, want - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf || got != want) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 buf ? "it changed size while being read" : "out of memory");
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

int io_write_new_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && io_write_all(fd, data, len);

	if (fd >= 0 && close(fd))
		ok = false;
	if (!ok) {
		snprintf(err, errlen, "cannot write %s: %s; point TMPDIR at a writable directory",
			 path, errno ? strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

int io_append_open(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	struct stat st;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open output %s: %s; choose a writable -o FILE", path,
			 strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "output %s is not a regular file; give -o a file path", path);
		close(fd);
		return -1;
	}
	return fd;
}

int io_append_atomic(int fd, const void *data, size_t len, char *err, size_t errlen)
{
	struct stat st;
	ssize_t n, more = -1;
	int e = 0, rc = -1;

	if (!len)
		return 0;
	/*
	 * Other entrylabs appending to the same file take the same lock, so the
	 * end we may roll back to is still the end when we write.
	 */
	while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
		;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot stat the output: %s", strerror(errno));
		goto out;
	}
	/* One write(2) per batch: with O_APPEND, concurrent writers never interleave lines. */
	do
		n = write(fd, data, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len) {
		e = errno;
		/* A short write (disk full, file size limit): the next write says why. */
		if (n >= 0) {
			more = write(fd, (const char *)data + n, len - (size_t)n);
			e = more < 0 ? errno : ENOSPC;
		}
		if ((n > 0 || more > 0) && ftruncate(fd, st.st_size) < 0)
			snprintf(err, errlen, "writing failed (%s) and a partial line could not be "
				 "removed", strerror(e));
		else
			snprintf(err, errlen, "writing failed: %s", strerror(e));
		goto out;
	}
	if (fsync(fd) < 0 && errno != EINVAL) {
		snprintf(err, errlen, "fsync: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	flock(fd, LOCK_UN);
	return rc;
}
