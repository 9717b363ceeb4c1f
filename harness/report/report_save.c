/*
 * report_save(): the matrix directory's summary.csv (more files to come:
 * report.md, SVG charts).  report_write_file(): temporary file, fsync,
 * rename, so each file appears whole or not at all.
 */
#include "report_save.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_io.h"

int report_write_file(const char *dir, const char *name, const char *data, size_t len, char *err,
		      size_t errlen)
{
	char tmp[4096], path[4096];
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name) >= (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		snprintf(err, errlen, "report directory path too long: %s; use a shorter one", dir);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s; make the directory writable", tmp,
			 strerror(errno));
		return -1;
	}
	if (!io_write_all(fd, data, len) || fsync(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s; check free space", tmp,
			 errno ? strerror(errno) : "short write");
		close(fd);
		unlink(tmp);
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s; check free space", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int report_save(const struct report *r, const char *dir, const struct report_meta *meta, char *err,
		size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	(void)meta;
	if (!f) {
		snprintf(err, errlen, "out of memory writing the report");
		return -1;
	}
	report_print_csv(f, r, ",");
	if (fclose(f)) {
		free(buf);
		snprintf(err, errlen, "out of memory writing the report");
		return -1;
	}
	rc = report_write_file(dir, "summary.csv", buf, len, err, errlen);
	free(buf);
	return rc;
}
