/*
 * PVH kernel loader: checks an ELF64 x86-64 executable with libelf, finds
 * its PVH entry note (owner "Xen", type XEN_ELFNOTE_PHYS32_ENTRY) and
 * copies its PT_LOAD segments to their physical addresses.  Works on a
 * memory buffer (the embedded kernel or a --kernel file).
 */
#ifndef EL_PVH_LOAD_H
#define EL_PVH_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpa.h"

#define PVH_MAX_SEGMENTS 16

struct pvh_segment {
	uint64_t paddr, filesz, memsz, offset;
};

struct pvh_image {
	uint64_t entry;  /* 32-bit physical entry point, from the note */
	uint64_t lo, hi; /* physical extent of the PT_LOAD segments [lo, hi) */
	unsigned nr_segments;
	struct pvh_segment seg[PVH_MAX_SEGMENTS];
};

/*
 * Checks the image against mem's RAM without touching it.  -1 with a
 * message naming the problem in err: not ELF or truncated, wrong class,
 * byte order, machine or type, a segment beyond the file, filesz > memsz,
 * a segment outside RAM below 3 GiB or over the boot-info area, overlapping
 * segments, no PVH note, an entry outside the segments.
 */
int pvh_parse(const void *elf, size_t len, const struct el_mem *mem, struct pvh_image *img,
	      char *err, size_t errlen);

/*
 * pvh_parse() with the PVH note optional: *has_note says whether there is
 * one (img->entry is then its entry, else 0).  A Linux vmlinux without the
 * note boots by Linux's 64-bit boot protocol instead (linux_load.h).
 */
int pvh_parse_any(const void *elf, size_t len, const struct el_mem *mem,
		  struct pvh_image *img, bool *has_note, char *err, size_t errlen);

/* Copies the parsed segments into guest memory and zeroes their bss. */
int pvh_copy(const void *elf, struct el_mem *mem, const struct pvh_image *img, char *err,
	     size_t errlen);

/* pvh_parse(), then copy the segments into guest memory and zero their bss. */
int pvh_load(const void *elf, size_t len, struct el_mem *mem, struct pvh_image *img,
	     char *err, size_t errlen);

#endif
