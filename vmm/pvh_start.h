/*
 * The PVH start-of-day data entrylab hands the guest: struct pvh_start_info
 * and what it points to, the boot GDT, and the kernel command line.
 *
 * Low-memory layout (guest-physical), all inside the first 12 KiB, which
 * kernel segments may not overlap (pvh_load.c refuses them):
 *
 *   0x0000  unused, left zero
 *   0x1000  struct pvh_start_info                  EBX at entry points here
 *   0x1040  struct pvh_module[1]                   module 0: the initrd
 *   0x1080  struct pvh_memmap_entry[]              RAM ranges (gpa.h layout)
 *   0x1800  boot GDT: null, code 0x08, data 0x10, TSS 0x18 (the entry selectors)
 *   0x2000  kernel command line, NUL-terminated, at most 4 KiB
 *   0x3000  end of the boot-info area
 *
 *   initrd: at the top of RAM below 3 GiB, page aligned, above the kernel.
 *
 * The memmap lists RAM only.  The guest must itself keep clear of what the
 * start_info names (cmdline, modules) and of its own image.
 */
#ifndef EL_PVH_START_H
#define EL_PVH_START_H

#include <stddef.h>
#include <stdint.h>

#include "gpa.h"

#define EL_START_INFO_GPA 0x1000u
#define EL_MODLIST_GPA 0x1040u
#define EL_MEMMAP_GPA 0x1080u
#define EL_MEMMAP_MAX ((EL_BOOT_GDT_GPA - EL_MEMMAP_GPA) / 24u)
#define EL_BOOT_GDT_GPA 0x1800u
#define EL_CMDLINE_GPA 0x2000u
#define EL_CMDLINE_MAX 4096u /* bytes including the NUL */
#define EL_BOOT_AREA_END 0x3000u

/* Boot GDT selectors, as the vCPU starts with them (vcpu_boot.c). */
#define EL_BOOT_SEL_CODE 0x08u
#define EL_BOOT_SEL_DATA 0x10u
#define EL_BOOT_SEL_TSS 0x18u
#define EL_BOOT_GDT_ENTRIES 4u

/*
 * out = append + " el.tsc_khz=N" (only when tsc_khz != 0) + " el.epoch_ns=N"
 * (CLOCK_REALTIME now, in ns: the guest's wall clock without kvmclock).  -1
 * with a message in err when it does not fit EL_CMDLINE_MAX.
 */
int pvh_cmdline_compose(char *out, size_t outlen, const char *append, uint64_t tsc_khz,
			char *err, size_t errlen);

/*
 * Writes the start_info, memmap, module list, boot GDT and cmdline into
 * guest memory.  kernel_end: first byte above the loaded kernel (the initrd
 * must go above it).  Returns the start_info GPA (EL_START_INFO_GPA), or 0
 * with a message in err (cmdline too long, initrd does not fit).
 */
uint64_t pvh_start_build(struct el_mem *mem, const char *cmdline, uint64_t kernel_end,
			 const unsigned char *initrd, size_t initrd_len, char *err,
			 size_t errlen);

#endif
