/*
 * One line of /proc/PID/maps in Linux's exact format:
 *   "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu " then, for a named area,
 *   spaces up to column 72, one more space and the name; then '\n'.
 * (Unnamed areas keep the trailing space after the inode, as on Linux.)
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it too.
 */
#ifndef EL_FS_MAPS_LINE_H
#define EL_FS_MAPS_LINE_H

#include <stddef.h>
#include <stdint.h>

#define MAPS_PROT_R 0x1u
#define MAPS_PROT_W 0x2u
#define MAPS_PROT_X 0x4u
#define MAPS_NAME_COLUMN 73 /* names start here (25 + 6 * sizeof(void *) - 1, plus a space) */

struct maps_line {
	uint64_t start, end;
	uint32_t prot;    /* MAPS_PROT_* */
	int shared;       /* 's' instead of 'p' */
	uint64_t pgoff;   /* bytes; 0 for anything but files */
	uint32_t major, minor;
	uint64_t ino;
	const char *name; /* NULL or "" for anonymous memory */
};

/*
 * Formats l into buf like snprintf (NUL-terminated when size > 0) and
 * returns the full length of the line.
 */
size_t maps_line_format(char *buf, size_t size, const struct maps_line *l);

#endif
