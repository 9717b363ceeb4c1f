/*
 * The lines /proc/PID/smaps prints after an area's maps line, in Linux's
 * format (fs/proc/task_mmu.c: show_smap): each "Name:" padded to 16
 * columns, the value in kB right-aligned in 8, " kB"; THPeligible without
 * a unit; then "VmFlags:" and one two-letter mnemonic plus a space per flag,
 * in Linux's bit order.  ProtectionKey (only with pkeys) is not printed.
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it too.
 */
#ifndef EL_FS_SMAPS_FORMAT_H
#define EL_FS_SMAPS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* VmFlags, in the order Linux prints them (the order of its VM_* bits). */
enum smaps_vmflag {
	SMAPS_RD,  /* VM_READ */
	SMAPS_WR,  /* VM_WRITE */
	SMAPS_EX,  /* VM_EXEC */
	SMAPS_SH,  /* VM_SHARED */
	SMAPS_MR,  /* VM_MAYREAD */
	SMAPS_MW,  /* VM_MAYWRITE */
	SMAPS_ME,  /* VM_MAYEXEC */
	SMAPS_MS,  /* VM_MAYSHARE */
	SMAPS_GD,  /* VM_GROWSDOWN */
	SMAPS_PF,  /* VM_PFNMAP */
	SMAPS_IO,  /* VM_IO */
	SMAPS_DE,  /* VM_DONTEXPAND */
	SMAPS_AC,  /* VM_ACCOUNT */
	SMAPS_DD,  /* VM_DONTDUMP */
	SMAPS_NR_FLAGS,
};

#define SMAPS_FLAG(f) (1u << (f))
#define PSS_SHIFT 12 /* pss is kept in bytes << PSS_SHIFT, as Linux (fractions of a page) */

/* One area's memory, in bytes (pss and pss_dirty scaled by PSS_SHIFT). */
struct smaps_counts {
	uint64_t size;
	uint64_t rss;
	uint64_t pss, pss_dirty;
	uint64_t shared_clean, shared_dirty;
	uint64_t private_clean, private_dirty;
	uint64_t referenced;
	uint64_t anonymous;
	uint32_t vmflags; /* SMAPS_FLAG(SMAPS_*) */
};

/* Formats c like snprintf (NUL-terminated when size > 0) and returns the full length. */
size_t smaps_format(char *buf, size_t size, const struct smaps_counts *c);

#endif
