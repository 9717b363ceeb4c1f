/*
 * The guest's initrd (PVH module 0): a newc cpio with the program as /init
 * and the directories the guest kernel expects.
 */
#ifndef EL_INITRD_H
#define EL_INITRD_H

#include <stddef.h>

#include "cpio.h"

/* Builds the archive around one program image; -1 with c->error set on failure. */
int initrd_build(struct el_cpio *c, const unsigned char *image, size_t len);

/*
 * Checks that a user-supplied program can run in the guest: ELF64, x86-64,
 * ET_EXEC or static-pie ET_DYN, no PT_INTERP (static), loadable segments;
 * or an ELF32 i386 one that passes the guest's elf_check() (a compat process).
 * 0, or -1 with a message naming the problem and the fix in err.
 */
int exec_check(const unsigned char *image, size_t len, char *err, size_t errlen);

/*
 * Program arguments for the guest command line after " -- ": each one in
 * double quotes; refuses characters the guest parser cannot carry (", \,
 * control characters).  0, or -1 with a message in err.
 */
int initrd_quote_args(char *out, size_t outlen, char *const *args, int nargs, char *err,
		      size_t errlen);

#endif
