/*
 * The records file of a command (record_out.h): the path judged before
 * boot with a table of what cannot hold records, the file opened once and
 * kept, lines appended through io_append_atomic (one write per batch,
 * rolled back if torn, fsync'ed).
 */
#include <errno.h>
#include <libgen.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "array_size.h"
#include "host_io.h"
#include "record_out.h"
#include "status.h"

/* Filesystems whose files are interfaces, not storage: a record written there is gone. */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{PROC_SUPER_MAGIC, "procfs"},   {SYSFS_MAGIC, "sysfs"},
	{DEBUGFS_MAGIC, "debugfs"},     {TRACEFS_MAGIC, "tracefs"},
	{CGROUP_SUPER_MAGIC, "cgroupfs"}, {CGROUP2_SUPER_MAGIC, "cgroup2fs"},
	{SECURITYFS_MAGIC, "securityfs"}, {DEVPTS_SUPER_MAGIC, "devpts"},
	{BPF_FS_MAGIC, "bpffs"},        {EFIVARFS_MAGIC, "efivarfs"},
	{PSTOREFS_MAGIC, "pstore"},
};

static const char *pseudo_fs_name(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf) < 0)
		return NULL;
	for (size_t i = 0; i < EL_ARRAY_SIZE(pseudo_fs); i++)
		if ((unsigned long)sf.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

#define FIX "; choose another -o FILE"
#define OR_FIX " or choose another -o FILE"

/* An existing path: a writable regular file on a real filesystem. */
static int check_existing(const char *path, const struct stat *st, char *err, size_t errlen)
{
	const char *fs;

	if (S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "%s is a directory; give a file in it, e.g. -o %s/runs.jsonl",
			 path, path);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s is not a regular file (a device, FIFO or socket)" FIX,
			 path);
		return -1;
	}
	if ((fs = pseudo_fs_name(path))) {
		snprintf(err, errlen, "%s is on %s, which keeps no data" FIX, path, fs);
		return -1;
	}
	/* Root could write it anyway; a file marked read-only is not to be appended to. */
	if (!(st->st_mode & 0222) || access(path, W_OK) < 0) {
		snprintf(err, errlen, "%s is read-only (mode %04o); make it writable (chmod u+w %s)"
			 OR_FIX, path, (unsigned)(st->st_mode & 07777), path);
		return -1;
	}
	return 0;
}

/* A path to create: its directory exists, is one, is writable, is storage. */
static int check_new(const char *path, char *err, size_t errlen)
{
	char *copy = strdup(path), *dir;
	struct stat st;
	const char *fs;
	int rc = -1;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	dir = dirname(copy);
	if (stat(dir, &st) < 0)
		snprintf(err, errlen, "%s: directory %s %s; create it (mkdir -p %s)" OR_FIX, path, dir,
			 errno == ENOENT ? "does not exist" : strerror(errno), dir);
	else if (!S_ISDIR(st.st_mode))
		snprintf(err, errlen, "%s: %s is not a directory" FIX, path, dir);
	else if ((fs = pseudo_fs_name(dir)))
		snprintf(err, errlen, "%s: %s is on %s, which keeps no data" FIX, path, dir, fs);
	else if (access(dir, W_OK | X_OK) < 0)
		snprintf(err, errlen, "%s: directory %s is not writable (%s)" FIX, path, dir,
			 strerror(errno));
	else
		rc = 0;
	free(copy);
	return rc;
}

int record_out_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	size_t len = path ? strlen(path) : 0;

	if (!len) {
		snprintf(err, errlen, "the output path is empty; give -o FILE");
		return -1;
	}
	if (len >= sizeof(((struct record_out *)0)->path)) {
		snprintf(err, errlen, "the output path is %zu characters long; give a shorter -o "
			 "FILE", len);
		return -1;
	}
	if (path[len - 1] == '/') {
		snprintf(err, errlen, "%s names a directory; give a file in it, e.g. -o %sruns.jsonl",
			 path, path);
		return -1;
	}
	if (stat(path, &st) == 0)
		return check_existing(path, &st, err, errlen);
	if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s" FIX, path, strerror(errno));
		return -1;
	}
	return check_new(path, err, errlen);
}

int record_out_open(struct record_out *o, const char *cmd, const char *path)
{
	char err[4096 + 600];
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (record_out_check(path, err, sizeof(err)) == 0) {
		o->created = stat(path, &st) < 0;
		o->fd = io_append_open(path, err, sizeof(err));
	}
	if (o->fd < 0) {
		fprintf(stderr, "entrylab %s: output %s\n", cmd, err);
		return EL_EXIT_USAGE;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	return 0;
}

int record_out_write(struct record_out *o, const char *data, size_t len, unsigned long nlines)
{
	char err[600];

	if (o->failed || o->fd < 0) {
		o->failed = true;
		return -1;
	}
	if (io_append_atomic(o->fd, data, len, err, sizeof(err))) {
		fprintf(stderr, "entrylab: writing records to %s: %s; nothing more is written "
				"there (free space on its filesystem, or choose another -o FILE, "
				"and run again)\n", o->path, err);
		o->failed = true;
		return -1;
	}
	o->written += nlines;
	return 0;
}

int record_out_append(struct record_out *o, struct json_object *rec)
{
	const char *text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
								       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = strlen(text);
	char *line = malloc(len + 1);
	int rc;

	if (!line) {
		fprintf(stderr, "entrylab: out of memory writing a record to %s\n", o->path);
		o->failed = true;
		return -1;
	}
	memcpy(line, text, len);
	line[len] = '\n';
	rc = record_out_write(o, line, len + 1, 1);
	free(line);
	return rc;
}

int record_out_close(struct record_out *o)
{
	struct stat st;
	int rc = o->failed ? -1 : 0;

	if (o->fd < 0)
		return rc;
	if (o->created && !o->written && fstat(o->fd, &st) == 0 && st.st_size == 0)
		unlink(o->path);
	if (close(o->fd) < 0 && !rc) {
		fprintf(stderr, "entrylab: closing %s: %s; its last records may be lost\n",
			o->path, strerror(errno));
		rc = -1;
	}
	o->fd = -1;
	return rc;
}
