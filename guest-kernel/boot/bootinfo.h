/*
 * What the loader handed over in struct pvh_start_info, copied into the
 * kernel at boot so nothing later depends on where the loader put it.
 */
#ifndef EL_BOOTINFO_H
#define EL_BOOTINFO_H

#include "entrylab/pvh.h"
#include "kernel.h"

#define BOOT_CMDLINE_MAX 4096
#define BOOT_MEMMAP_MAX 64
#define BOOT_MODULES_MAX 8
#define BOOT_MODULE_CMDLINE_MAX 64

struct boot_module {
	uint64_t paddr, size;
	char cmdline[BOOT_MODULE_CMDLINE_MAX];
};

/* How the kernel was entered: which loader filled start_info. */
enum boot_path {
	BOOT_PATH_PVH,        /* a PVH loader (entrylab's VMM, qemu -kernel) */
	BOOT_PATH_MULTIBOOT2, /* GRUB through the Multiboot2 shim (Bochs) */
};

struct boot_info {
	uint64_t start_info_phys;
	enum boot_path path;
	uint32_t version, flags;
	uint64_t rsdp_paddr;
	char cmdline[BOOT_CMDLINE_MAX];
	struct pvh_memmap_entry memmap[BOOT_MEMMAP_MAX];
	unsigned nr_memmap;
	struct boot_module modules[BOOT_MODULES_MAX];
	unsigned nr_modules;
	uint64_t ram_end; /* end of the highest RAM range */
};

extern struct boot_info boot_info;

/* Validates start_info (magic, version, addresses) and copies it; panics if unusable. */
void bootinfo_capture(uint32_t start_info_phys);
/* Memory map and modules, for the console. */
void bootinfo_print(void);

#endif
