/*
 * Appending records: one line per run, written whole or not at all, so a
 * crash or a full disk never leaves a torn line after completed runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

int record_append(const char *path, struct json_object *rec)
{
	const char *text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
								       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(text);
	struct stat st;
	ssize_t n;
	char *line;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "entrylab: cannot open output %s: %s; choose a writable -o FILE\n",
			path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "entrylab: output %s is not a regular file; give -o a file path\n",
			path);
		close(fd);
		return -1;
	}
	line = malloc(len + 1);
	if (!line) {
		close(fd);
		return -1;
	}
	memcpy(line, text, len);
	line[len] = '\n';
	n = write(fd, line, len + 1);
	free(line);
	if (n != (ssize_t)(len + 1)) {
		int e = n < 0 ? errno : ENOSPC;

		/* Roll back a torn line so earlier records stay parseable. */
		if (ftruncate(fd, st.st_size) < 0)
			fprintf(stderr, "entrylab: %s: could not remove a partial line\n", path);
		fprintf(stderr, "entrylab: writing %s failed: %s\n", path, strerror(e));
		close(fd);
		return -1;
	}
	if (fsync(fd) < 0 && errno != EINVAL) {
		fprintf(stderr, "entrylab: fsync %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	return close(fd);
}

int record_default_path(const char *bench, char *buf, size_t len)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (mkdir("results", 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "entrylab: cannot create results/: %s; give -o FILE\n",
			strerror(errno));
		return -1;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/%s-%s-%d.jsonl", bench ? bench : "boot", when, (int)getpid());
	return 0;
}
