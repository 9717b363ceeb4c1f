/*
 * The records file of one command (`run`, `trace`, `matrix`): its path
 * checked and the file opened for appending BEFORE anything boots, so a
 * path that cannot hold records is a usage error that costs no VM, then
 * each record appended whole and fsync'ed through the descriptor opened
 * then (no check-then-open race).  A write that fails later is remembered:
 * the command must exit non-zero and must not claim the record was kept.
 */
#ifndef EL_RECORD_OUT_H
#define EL_RECORD_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

struct record_out {
	char path[4096];
	int fd;                /* -1: not open */
	bool created;          /* the file did not exist before record_out_open */
	bool failed;           /* a write failed (message printed); nothing more is written */
	unsigned long written; /* records (lines) appended */
};

/*
 * Why path cannot take records, or 0: it is (or will be, in an existing
 * writable directory) a regular file, writable, on a filesystem that keeps
 * data (not procfs, sysfs, ...).  -1 with "PATH: problem; fix" in err.
 */
int record_out_check(const char *path, char *err, size_t errlen);

/*
 * Checks path and opens it (O_APPEND, io_append_open).  0, or EL_EXIT_USAGE
 * after printing "entrylab CMD: output PATH: problem; fix".
 */
int record_out_open(struct record_out *o, const char *cmd, const char *path);

/* One record as one line, whole or not at all, fsync'ed.  0, or -1 (printed, o->failed). */
int record_out_append(struct record_out *o, struct json_object *rec);

/* Whole lines already formatted (nlines of them).  0, or -1 (printed, o->failed). */
int record_out_write(struct record_out *o, const char *data, size_t len, unsigned long nlines);

/*
 * Closes the file; an empty file this command created is removed again.
 * 0, or -1 when a write or the close failed (printed).
 */
int record_out_close(struct record_out *o);

#endif
