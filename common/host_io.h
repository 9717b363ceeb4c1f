/*
 * File and descriptor helpers every host library shares (host only: the
 * guest kernel does not compile this file).  One write-all, one whole-file
 * reader and one atomic append, so a short write, EINTR or a torn line is
 * handled the same way everywhere.
 */
#ifndef EL_HOST_IO_H
#define EL_HOST_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Writes all of buf, retrying on EINTR and short writes; false on error or EOF. */
bool io_write_all(int fd, const void *buf, size_t len);

/*
 * A whole regular file, NUL-terminated (malloc'd), at most max bytes.
 * NULL with "cannot read PATH: why" in err.
 */
char *io_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Everything until EOF from fd, NUL-terminated (malloc'd); NULL out of memory. */
char *io_read_fd(int fd, size_t *len);

/* Creates path exclusively (mode 0600) with data; -1 with a message in err. */
int io_write_new_file(const char *path, const void *data, size_t len, char *err, size_t errlen);

/*
 * Appending to a JSON-lines file: fd open for O_APPEND on a regular file
 * (-1 with a message naming the fix otherwise), then whole batches of lines,
 * each batch written at once and fsync'ed, or rolled back to the previous
 * end if it was torn (under flock(LOCK_EX), so another entrylab appending
 * to the same file does not lose a line to the rollback), so earlier lines
 * always stay parseable.
 */
int io_append_open(const char *path, char *err, size_t errlen);
int io_append_atomic(int fd, const void *data, size_t len, char *err, size_t errlen);

#endif
