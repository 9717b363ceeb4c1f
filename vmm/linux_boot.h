/*
 * Linux's 64-bit boot protocol (Documentation/arch/x86/boot.rst, "64-bit
 * Boot Protocol"), for a vmlinux without the PVH note and for a bzImage:
 * the zero page (struct boot_params) with the setup header, the e820 map,
 * the command line and the initrd; identity page tables and a GDT with
 * __BOOT_CS 0x10 and __BOOT_DS 0x18 as flat 4 GiB segments; the vCPU in
 * long mode with interrupts off, RSI = the zero page, RIP = startup_64
 * (vcpu_boot_long, vm.h).  A kernel with the PVH note boots through
 * pvh_start.h instead.
 *
 * Low-memory layout (guest-physical), below the EBDA at 0x9fc00 and under
 * any kernel (linux_load.c refuses one below 1 MiB):
 *
 *   0x0500   GDT: null, null, 0x10 code (64-bit), 0x18 data, 0x20 TSS (16 bytes)
 *   0x7000   boot_params, the zero page
 *   0x8000   a stack page: RSP 0x8ff0 at entry (both entries switch to their own)
 *   0x9000   PML4; 0xa000 PDPT; 0xb000..0xefff four PDs: [0, 4 GiB) in 2 MiB pages
 *   0x20000  the command line, at most 4 KiB
 *
 *   initrd: the top of RAM below 3 GiB and below the kernel's initrd_addr_max.
 *
 * Pure on guest memory: builds and checks, no vCPU (unit-tested).
 */
#ifndef EL_LINUX_BOOT_H
#define EL_LINUX_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "gpa.h"
#include "linux_load.h"

#define LX_GDT_GPA 0x500u
#define LX_SEL_CODE 0x10u /* __BOOT_CS */
#define LX_SEL_DATA 0x18u /* __BOOT_DS */
#define LX_SEL_TSS 0x20u
#define LX_GDT_BYTES 0x30u
#define LX_ZERO_PAGE_GPA 0x7000u
#define LX_STACK_TOP 0x8ff0u
#define LX_PML4_GPA 0x9000u
#define LX_PDPT_GPA 0xa000u
#define LX_PD_GPA 0xb000u
#define LX_IDENT_GIB 4u
#define LX_CMDLINE_GPA 0x20000u
#define LX_CMDLINE_ROOM 4096u
#define LX_EBDA 0x9fc00u
#define LX_HIGH 0x100000u

/* Zero page fields outside the setup header. */
#define LX_BP_EXT_RAMDISK_IMAGE 0x0c0u
#define LX_BP_EXT_RAMDISK_SIZE 0x0c4u
#define LX_BP_EXT_CMD_LINE_PTR 0x0c8u
#define LX_BP_E820_ENTRIES 0x1e8u
#define LX_BP_SENTINEL 0x1efu
#define LX_BP_HDR_END 0x290u /* the setup header's room ends here */
#define LX_BP_E820_TABLE 0x2d0u
#define LX_E820_MAX 128u
#define LX_ZERO_PAGE_SIZE 4096u

/* What a loader writes into a vmlinux's synthesized header. */
#define LX_LOADER_UNDEFINED 0xffu
#define LX_VMLINUX_ALIGN 0x200000u

enum { LX_E820_RAM = 1, LX_E820_RESERVED = 2 };

struct lx_e820 {
	uint64_t addr, size;
	uint32_t type;
};

/*
 * The e820 map of mem: RAM below the EBDA, the EBDA to 1 MiB reserved
 * (EBDA, VGA, BIOS: nothing there, but Linux keeps away), RAM from 1 MiB,
 * and the RAM above 4 GiB when there is some (gpa.h).  Returns the count.
 */
unsigned linux_e820(const struct el_mem *mem, struct lx_e820 *map, unsigned max);

/* Where the vCPU starts (vcpu_boot_long). */
struct linux_entry {
	uint64_t rip, rsi, rsp, cr3;
	uint64_t gdt_base;
	uint16_t gdt_limit;
};

/*
 * Everything the protocol needs in guest memory, the kernel already loaded
 * (linux_load): zero page, e820, command line, initrd, GDT, page tables.
 * image is the kernel file (a bzImage's setup header is copied from it).
 * 0 with *entry filled, or -1 with the problem in err.
 */
int linux_boot_build(struct el_mem *mem, const void *image, const struct linux_image *li,
		     const char *cmdline, const unsigned char *initrd, size_t initrd_len,
		     struct linux_entry *entry, char *err, size_t errlen);

#endif
