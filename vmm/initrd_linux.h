/*
 * The initrd of `--guest linux` (the layout: include/entrylab/linux_init.h):
 * entrylab's /init, the program, its arguments and /init's conf.
 */
#ifndef EL_INITRD_LINUX_H
#define EL_INITRD_LINUX_H

#include <stddef.h>

#include "cpio.h"

/*
 * Builds and finishes the archive: /init (init, 0755), EL_LINUX_PROGRAM
 * (program, 0755), EL_LINUX_ARGV (argv[0..argc): the program's arguments,
 * its argv[1..], each with its NUL), EL_LINUX_CONF (conf, KEY=VALUE lines;
 * NULL for none) and the empty directories dev, proc, sys and tmp.  0, or
 * -1 with c->error set.
 */
int initrd_build_linux(struct el_cpio *c, const unsigned char *init, size_t init_len,
		       const unsigned char *program, size_t program_len, char *const argv[],
		       int argc, const char *conf);

#endif
