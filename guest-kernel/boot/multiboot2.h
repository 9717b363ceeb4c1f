/*
 * The part of the Multiboot2 boot protocol the kernel uses (GRUB's
 * `multiboot2` command, how Bochs boots it): the header the loader looks
 * for, the boot-information (MBI) tags the 32-bit shim
 * (arch/x86_64/mb2_entry.S) turns into a struct pvh_start_info, and the
 * offsets that shim relies on.  Our own declarations of the published
 * layout.  Included by asm (constants only) and by C, where every offset
 * is checked against the structure it describes.
 */
#ifndef EL_BOOT_MULTIBOOT2_H
#define EL_BOOT_MULTIBOOT2_H

/* Header: 8-aligned within the first 32 KiB of the file. */
#define MB2_HEADER_MAGIC 0xe85250d6
#define MB2_ARCH_I386 0            /* 32-bit protected mode entry */
#define MB2_HTAG_END 0
#define MB2_HTAG_INFO_REQUEST 1
#define MB2_HTAG_ENTRY_ADDRESS 3

/* In EAX at the entry, EBX = physical address of the MBI (8-aligned). */
#define MB2_LOADER_MAGIC 0x36d76289

/* MBI: u32 total_size, u32 reserved, then tags, each 8-aligned, ending with type 0. */
#define MB2_MBI_HEADER_SIZE 8
#define MB2_TAG_HEADER_SIZE 8      /* u32 type, u32 size (size excludes the padding) */
#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1          /* +8: NUL-terminated string */
#define MB2_TAG_MODULE 3           /* +8 mod_start, +12 mod_end (exclusive), +16 string */
#define MB2_TAG_MMAP 6             /* +8 entry_size, +12 entry_version, +16 entries */
#define MB2_TAG_ACPI_OLD 14        /* +8: copy of the ACPI 1.0 RSDP (20 bytes) */
#define MB2_TAG_ACPI_NEW 15        /* +8: copy of the ACPI 2.0+ RSDP (36 bytes) */
#define MB2_TAG_TYPES 16           /* the shim's dispatch table covers types 0..15 */

#define MB2_MOD_START 8
#define MB2_MOD_END 12
#define MB2_MOD_STRING 16
#define MB2_MMAP_ENTRY_SIZE 8
#define MB2_MMAP_ENTRIES 16
#define MB2_MMAP_ENTRY_MIN 24      /* u64 base, u64 length, u32 type, u32 reserved */
#define MB2_MMAP_BASE 0
#define MB2_MMAP_LENGTH 8
#define MB2_MMAP_TYPE 16
#define MB2_MMAP_TYPE_MAX 5        /* 1..5 are the PVH/ACPI types; others are "reserved" */
#define MB2_RSDP_V1_SIZE 20
#define MB2_RSDP_MAX 36            /* the ACPI 2.0 RSDP */
#define MB2_RSDP_SIG_LO 0x20445352 /* "RSD " */
#define MB2_RSDP_SIG_HI 0x20525450 /* "PTR " */
#define MB2_MMAP_TYPE_RESERVED 2   /* = PVH_MEM_RESERVED */
#define MB2_COM1 0x3f8             /* = EL_PORT_COM1, for the shim's halt message */

/* What the shim accepts: an MBI larger than this is refused as corrupt. */
#define MB2_MBI_MAX 0x100000
/* Its buffers (in .boot, so the .bss clearing of boot.S leaves them alone). */
#define MB2_CMDLINE_MAX 4096       /* = BOOT_CMDLINE_MAX */
#define MB2_MEMMAP_MAX 64          /* = BOOT_MEMMAP_MAX */
#define MB2_MODULES_MAX 8          /* = BOOT_MODULES_MAX */
#define MB2_STACK_SIZE 1024

/* struct pvh_start_info / pvh_module / pvh_memmap_entry offsets (entrylab/pvh.h). */
#define PVH_SI_MAGIC_VALUE 0x336ec578 /* = PVH_START_MAGIC */
#define PVH_SI_VERSION_VALUE 1        /* = PVH_START_VERSION */
#define PVH_SI_MAGIC 0
#define PVH_SI_VERSION 4
#define PVH_SI_NR_MODULES 12
#define PVH_SI_MODLIST 16
#define PVH_SI_CMDLINE 24
#define PVH_SI_RSDP 32
#define PVH_SI_MEMMAP 40
#define PVH_SI_MEMMAP_ENTRIES 48
#define PVH_SI_SIZE 56
#define PVH_MOD_PADDR 0
#define PVH_MOD_SIZE 8
#define PVH_MOD_CMDLINE 16
#define PVH_MOD_ENTRY_SIZE 32
#define PVH_MEMMAP_ADDR 0
#define PVH_MEMMAP_SIZE 8
#define PVH_MEMMAP_TYPE 16
#define PVH_MEMMAP_ENTRY_SIZE 24

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

#include "boot/bootinfo.h"
#include "entrylab/abi.h"
#include "entrylab/pvh.h"

_Static_assert(offsetof(struct pvh_start_info, magic) == PVH_SI_MAGIC, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, version) == PVH_SI_VERSION, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, nr_modules) == PVH_SI_NR_MODULES, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, modlist_paddr) == PVH_SI_MODLIST, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, cmdline_paddr) == PVH_SI_CMDLINE, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, rsdp_paddr) == PVH_SI_RSDP, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, memmap_paddr) == PVH_SI_MEMMAP, "shim layout");
_Static_assert(offsetof(struct pvh_start_info, memmap_entries) == PVH_SI_MEMMAP_ENTRIES,
	       "shim layout");
_Static_assert(sizeof(struct pvh_start_info) == PVH_SI_SIZE, "shim layout");
_Static_assert(offsetof(struct pvh_module, paddr) == PVH_MOD_PADDR, "shim layout");
_Static_assert(offsetof(struct pvh_module, size) == PVH_MOD_SIZE, "shim layout");
_Static_assert(offsetof(struct pvh_module, cmdline_paddr) == PVH_MOD_CMDLINE, "shim layout");
_Static_assert(sizeof(struct pvh_module) == PVH_MOD_ENTRY_SIZE, "shim layout");
_Static_assert(offsetof(struct pvh_memmap_entry, addr) == PVH_MEMMAP_ADDR, "shim layout");
_Static_assert(offsetof(struct pvh_memmap_entry, size) == PVH_MEMMAP_SIZE, "shim layout");
_Static_assert(offsetof(struct pvh_memmap_entry, type) == PVH_MEMMAP_TYPE, "shim layout");
_Static_assert(sizeof(struct pvh_memmap_entry) == PVH_MEMMAP_ENTRY_SIZE, "shim layout");
_Static_assert(PVH_MEM_UNUSABLE == MB2_MMAP_TYPE_MAX && PVH_MEM_RAM == 1 &&
		       PVH_MEM_RESERVED == 2 && PVH_MEM_ACPI == 3 && PVH_MEM_NVS == 4,
	       "Multiboot2 memory types 1..5 are the PVH types");
_Static_assert(PVH_SI_MAGIC_VALUE == PVH_START_MAGIC && PVH_SI_VERSION_VALUE == PVH_START_VERSION,
	       "shim start_info header");
_Static_assert(MB2_MMAP_TYPE_RESERVED == PVH_MEM_RESERVED, "shim memory type");
_Static_assert(MB2_COM1 == EL_PORT_COM1, "shim console port");
_Static_assert(MB2_CMDLINE_MAX == BOOT_CMDLINE_MAX, "shim command line buffer");
_Static_assert(MB2_MEMMAP_MAX == BOOT_MEMMAP_MAX, "shim memory map buffer");
_Static_assert(MB2_MODULES_MAX == BOOT_MODULES_MAX, "shim module list");

/* The shim's start_info (mb2_entry.S): EBX points here when GRUB booted us. */
extern struct pvh_start_info mb2_start_info;
#endif

#endif
