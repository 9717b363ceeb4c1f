/*
 * --file HOSTPATH[=GUESTPATH]: host files and directory trees packed into
 * the guest's initrd next to the program, for it to open or execve.  A
 * directory goes in whole: its regular files, directories and symbolic
 * links (kept as links), each with its permission bits.  Bounded by
 * EL_FILES_MAX (options), EL_FILES_ENTRIES_MAX and EL_FILES_BYTES_MAX
 * (common/el_limits.h), all checked before anything boots.
 */
#ifndef EL_FILES_H
#define EL_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "cpio.h"

#define EL_FILE_PATH_MAX 256 /* HOSTPATH and GUESTPATH, with the NUL */

struct el_file {
	char host[EL_FILE_PATH_MAX];  /* as given */
	char guest[EL_FILE_PATH_MAX]; /* absolute, no '.' or '..' components */
	uint64_t bytes;               /* after files_pack: the regular files' content */
	uint32_t entries;             /* after files_pack: cpio entries (parents excluded) */
};

/*
 * Parses one --file argument: HOSTPATH, or HOSTPATH=GUESTPATH (split at the
 * first '=').  Without GUESTPATH the file goes to / under HOSTPATH's last
 * component.  GUESTPATH must be absolute, without '.' or '..' components,
 * not / and not /init or below it; repeated slashes become one.  0, or -1
 * with the problem and the fix in err.
 */
int files_parse(const char *arg, struct el_file *f, char *err, size_t errlen);

/*
 * Adds files[0..n) to c (before the program's entries and the trailer),
 * their parents as 0755 directories; fills each one's bytes and entries.
 * reserved: a guest path prefix the guest's own layout takes (the Linux
 * /init's "/entrylab"), NULL for none.  Refuses, before reading more: two
 * files at one GUESTPATH, more than EL_FILES_MAX files, trees past
 * EL_FILES_ENTRIES_MAX entries or EL_FILES_BYTES_MAX bytes, device nodes,
 * fifos and sockets, unreadable files.  0, or -1 with the problem and the
 * fix in err.
 */
int files_pack(struct el_cpio *c, struct el_file *files, unsigned n, const char *reserved,
	       char *err, size_t errlen);

#endif
