/*
 * Appending records: one line per run, written whole or not at all, so a
 * crash or a full disk never leaves a torn line after completed runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "host_io.h"
#include "record.h"

int record_append(const char *path, struct json_object *rec)
{
	const char *text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
								       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(text);
	char err[600], *line;
	int fd = io_append_open(path, err, sizeof(err)), rc;

	if (fd < 0) {
		fprintf(stderr, "entrylab: %s\n", err);
		return -1;
	}
	line = malloc(len + 1);
	if (!line) {
		close(fd);
		fprintf(stderr, "entrylab: out of memory writing %s\n", path);
		return -1;
	}
	memcpy(line, text, len);
	line[len] = '\n';
	rc = io_append_atomic(fd, line, len + 1, err, sizeof(err));
	free(line);
	if (rc)
		fprintf(stderr, "entrylab: %s: %s\n", path, err);
	if (close(fd) && !rc) {
		fprintf(stderr, "entrylab: %s: close: %s\n", path, strerror(errno));
		rc = -1;
	}
	return rc;
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
