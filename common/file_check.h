/*
 * Reading an untrusted ELF file (--kernel, --exec) only after it has been
 * checked: fstat first (a regular file within its limit, el_limits.h), then
 * the 64-byte ELF header and the program header table read with pread,
 * then every segment's place in the file.  Only a file that passes is read
 * whole, so a huge or sparse file costs no memory to refuse.  Host only.
 */
#ifndef EL_FILE_CHECK_H
#define EL_FILE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * The header checks on an ELF header and program header table already in
 * memory (what file_read_elf() preads): x86-64 ELF64 or i386 ELF32
 * (a compat process in the guest), little-endian, a
 * program header table of 1..ELF_MAX_PHNUM entries inside a file of
 * file_size bytes, every PT_LOAD and PT_NOTE inside it.  0, or -1 with the
 * problem in err.  phdrs may be NULL: only the ELF header is checked.
 */
int file_check_ehdr(const unsigned char *ehdr, size_t len, uint64_t file_size, char *err,
		    size_t errlen);
int file_check_phdrs(const unsigned char *ehdr, const unsigned char *phdrs, size_t phlen,
		     uint64_t file_size, char *err, size_t errlen);

/*
 * path checked as above with at most max bytes, then read whole (malloc'd,
 * NUL-terminated, length in *len).  NULL with "PATH: problem; fix" in err.
 */
unsigned char *file_read_elf(const char *path, uint64_t max, size_t *len, char *err, size_t errlen);

#endif
