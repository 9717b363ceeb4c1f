/*
 * The PVH boot ABI ("x86/HVM direct boot"), as far as entrylab uses it:
 * the ELF note that names the 32-bit entry point and the start-of-day
 * structure the loader hands over in EBX.  Our own declarations of the
 * published layout; both the VMM (loader) and the guest kernel include it.
 * All addresses are guest-physical; 0 means "not present".
 */
#ifndef ENTRYLAB_PVH_H
#define ENTRYLAB_PVH_H

#include <stdint.h>

#define PVH_NOTE_NAME "Xen"         /* ELF note owner, namesz 4 */
#define PVH_NOTE_PHYS32_ENTRY 18u   /* note type: desc = 32-bit physical entry */

#define PVH_START_MAGIC 0x336ec578u
#define PVH_START_VERSION 1u

struct pvh_start_info {
	uint32_t magic;          /* PVH_START_MAGIC */
	uint32_t version;        /* 1: memmap fields valid */
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;  /* struct pvh_module[nr_modules] */
	uint64_t cmdline_paddr;  /* NUL-terminated */
	uint64_t rsdp_paddr;
	uint64_t memmap_paddr;   /* struct pvh_memmap_entry[memmap_entries] */
	uint32_t memmap_entries;
	uint32_t reserved;
};

struct pvh_module {
	uint64_t paddr;
	uint64_t size;
	uint64_t cmdline_paddr;
	uint64_t reserved;
};

/* Memory types, as in the ACPI address map. */
enum pvh_memmap_type {
	PVH_MEM_RAM = 1,
	PVH_MEM_RESERVED = 2,
	PVH_MEM_ACPI = 3,
	PVH_MEM_NVS = 4,
	PVH_MEM_UNUSABLE = 5,
};

struct pvh_memmap_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
	uint32_t reserved;
};

_Static_assert(sizeof(struct pvh_start_info) == 56, "pvh_start_info layout");
_Static_assert(sizeof(struct pvh_module) == 32, "pvh_module layout");
_Static_assert(sizeof(struct pvh_memmap_entry) == 24, "pvh_memmap_entry layout");

#endif
