/*
 * Writing newc ("070701") cpio archives in memory: the per-command archive
 * of the nested runner, and the guest's initrd (PVH module 0).  The Linux
 * initramfs unpacker and our guest kernel both read this format.
 *
 * Names are stored without a leading '/'; "." and ".." components and empty
 * names are refused.  Owner root, mtime 0, so archives are reproducible.
 * Every call returns 0, or -1 with a message naming the entry in c->error
 * (the first error sticks: later calls fail too, so callers may check once,
 * at el_cpio_finish()).
 */
#ifndef EL_CPIO_H
#define EL_CPIO_H

#include <stddef.h>
#include <stdint.h>

struct el_cpio {
	unsigned char *buf;
	size_t len, cap;
	uint32_t next_ino;
	char **dirs; /* directories added so far, so parents go in once */
	size_t nr_dirs;
	char error[256];
};

void el_cpio_init(struct el_cpio *c);
void el_cpio_free(struct el_cpio *c);

/* A directory (mode: permission bits, e.g. 0755); added once however often asked. */
int el_cpio_add_dir(struct el_cpio *c, const char *path, unsigned int mode);

/* Every missing parent directory of path (0755), not path itself. */
int el_cpio_add_parents(struct el_cpio *c, const char *path);

/* A regular file with the given content and permission bits. */
int el_cpio_add_file(struct el_cpio *c, const char *path, unsigned int mode, const void *data,
		     size_t len);

/* A regular file whose content is read from host_path. */
int el_cpio_add_host_file(struct el_cpio *c, const char *path, unsigned int mode,
			  const char *host_path);

/* A symbolic link path -> target. */
int el_cpio_add_symlink(struct el_cpio *c, const char *path, const char *target);

/* Appends the TRAILER!!! entry; the archive is then c->buf[0..c->len). */
int el_cpio_finish(struct el_cpio *c);

#endif
