/*
 * Reading a newc ("070701") or crc ("070702") cpio archive, the initrd
 * format, entry by entry.  The archive is untrusted: every size is checked
 * against the buffer, names must be NUL-terminated and short enough.
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it too.
 */
#ifndef EL_FS_CPIO_PARSE_H
#define EL_FS_CPIO_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define CPIO_HEADER_SIZE 110
#define CPIO_NAME_MAX 4096 /* PATH_MAX, NUL included */

enum cpio_status {
	CPIO_OK = 0,        /* *entry filled, *off advanced past it */
	CPIO_END,           /* the TRAILER!!! entry; *off is past it */
	CPIO_ERR_TRUNCATED, /* header, name or data runs past the buffer */
	CPIO_ERR_MAGIC,     /* not 070701 / 070702 */
	CPIO_ERR_HEX,       /* a header field is not 8 hex digits */
	CPIO_ERR_NAME,      /* name size 0, over CPIO_NAME_MAX, or not NUL-terminated */
};

struct cpio_entry {
	const char *name;    /* NUL-terminated, inside the buffer */
	size_t namelen;      /* without the NUL */
	const uint8_t *data; /* inside the buffer */
	uint64_t size;
	uint32_t ino, mode, uid, gid, nlink, mtime;
	uint32_t devmajor, devminor, rdevmajor, rdevminor;
};

/* Reads the entry at *off (4-byte aligned within buf). */
enum cpio_status cpio_next(const uint8_t *buf, size_t len, size_t *off, struct cpio_entry *e);

/*
 * After CPIO_END: skips the zero padding that may follow an archive.
 * Returns 1 if another archive starts at the new *off (concatenated
 * initrds), 0 at the end of the buffer.
 */
int cpio_skip_padding(const uint8_t *buf, size_t len, size_t *off);

const char *cpio_strerror(enum cpio_status st);

#endif
