/*
 * Capturing the PVH start_info.  The loader is trusted no more than it must
 * be: every structure it points to must lie inside what boot.S mapped, lists
 * are capped, strings are bounded; anything dropped is said on the console.
 */
#include "boot/bootinfo.h"
#include "boot/multiboot2.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/layout.h"

struct boot_info boot_info;

static const char *const memmap_types[] = {
	[PVH_MEM_RAM] = "RAM",           [PVH_MEM_RESERVED] = "reserved",
	[PVH_MEM_ACPI] = "ACPI",         [PVH_MEM_NVS] = "ACPI NVS",
	[PVH_MEM_UNUSABLE] = "unusable",
};

/* Only what boot.S direct-mapped is readable before paging_init(). */
static const void *boot_phys(uint64_t pa, uint64_t len)
{
	if (pa >= BOOT_MAP_SIZE || len > BOOT_MAP_SIZE - pa)
		return 0;
	return phys_to_virt(pa);
}

/* Copies a NUL-terminated string of at most size-1 bytes; false if cut. */
static bool copy_string(char *dst, size_t size, uint64_t pa)
{
	const char *src;
	size_t n = 0;

	dst[0] = '\0';
	if (!pa)
		return true;
	/* Cap at the end of the boot mapping; strings stop far earlier. */
	src = boot_phys(pa, 1);
	if (!src)
		return false;
	while (n + 1 < size && pa + n < BOOT_MAP_SIZE && src[n]) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
	return pa + n < BOOT_MAP_SIZE && src[n] == '\0';
}

static void capture_memmap(const struct pvh_start_info *si)
{
	const struct pvh_memmap_entry *m;
	unsigned i, n = si->memmap_entries;

	if (n > BOOT_MEMMAP_MAX) {
		kprintf("boot: memory map has %u entries, using the first %u\n", n,
			BOOT_MEMMAP_MAX);
		n = BOOT_MEMMAP_MAX;
	}
	m = boot_phys(si->memmap_paddr, (uint64_t)n * sizeof(*m));
	if (!m || !n)
		panic("PVH start_info has no usable memory map (paddr 0x%lx, %u entries); "
		      "the loader must pass one below 4 GiB",
		      si->memmap_paddr, si->memmap_entries);
	for (i = 0; i < n; i++) {
		boot_info.memmap[i] = m[i];
		if (m[i].type == PVH_MEM_RAM && m[i].addr + m[i].size > boot_info.ram_end)
			boot_info.ram_end = m[i].addr + m[i].size;
	}
	boot_info.nr_memmap = n;
}

static void capture_modules(const struct pvh_start_info *si)
{
	const struct pvh_module *mods;
	unsigned i, n = si->nr_modules;

	if (!n)
		return;
	if (n > BOOT_MODULES_MAX) {
		kprintf("boot: %u modules, using the first %u\n", n, BOOT_MODULES_MAX);
		n = BOOT_MODULES_MAX;
	}
	mods = boot_phys(si->modlist_paddr, (uint64_t)n * sizeof(*mods));
	if (!mods) {
		kprintf("boot: module list at 0x%lx is outside low memory; ignoring modules\n",
			si->modlist_paddr);
		return;
	}
	for (i = 0; i < n; i++) {
		struct boot_module *bm = &boot_info.modules[i];

		bm->paddr = mods[i].paddr;
		bm->size = mods[i].size;
		if (!copy_string(bm->cmdline, sizeof(bm->cmdline), mods[i].cmdline_paddr))
			kprintf("boot: module %u command line cut\n", i);
	}
	boot_info.nr_modules = n;
}

void bootinfo_capture(uint32_t start_info_phys)
{
	const struct pvh_start_info *si = boot_phys(start_info_phys, sizeof(*si));

	if (!si)
		panic("PVH start_info address 0x%x is not readable", start_info_phys);
	if (si->magic != PVH_START_MAGIC)
		panic("PVH start_info at 0x%x has magic 0x%x, expected 0x%x: not a PVH loader?",
		      start_info_phys, si->magic, PVH_START_MAGIC);
	if (si->version < PVH_START_VERSION)
		panic("PVH start_info version %u has no memory map; the loader must provide "
		      "version %u",
		      si->version, PVH_START_VERSION);
	boot_info.start_info_phys = start_info_phys;
	/* The shim (arch/x86_64/mb2_entry.S) hands over its own start_info. */
	boot_info.path = start_info_phys == (uint64_t)(uintptr_t)&mb2_start_info
				 ? BOOT_PATH_MULTIBOOT2
				 : BOOT_PATH_PVH;
	boot_info.version = si->version;
	boot_info.flags = si->flags;
	boot_info.rsdp_paddr = si->rsdp_paddr;
	if (!copy_string(boot_info.cmdline, sizeof(boot_info.cmdline), si->cmdline_paddr))
		kprintf("boot: command line longer than %d bytes, cut\n", BOOT_CMDLINE_MAX - 1);
	capture_memmap(si);
	capture_modules(si);
}

void bootinfo_print(void)
{
	unsigned i;

	kprintf("boot: %s\n", boot_info.path == BOOT_PATH_MULTIBOOT2
				   ? "Multiboot2 (GRUB), through the start_info shim"
				   : "PVH");
	kprintf("memory map (%u entries):\n", boot_info.nr_memmap);
	for (i = 0; i < boot_info.nr_memmap; i++) {
		const struct pvh_memmap_entry *m = &boot_info.memmap[i];
		const char *type = m->type < ARRAY_SIZE(memmap_types) ? memmap_types[m->type] : 0;

		kprintf("  [%016lx-%016lx] %8lu KiB  %s", m->addr, m->addr + m->size - 1,
			m->size >> 10, type ? type : "type");
		if (!type)
			kprintf(" %u", m->type);
		kprintf("\n");
	}
	kprintf("modules: %u\n", boot_info.nr_modules);
	for (i = 0; i < boot_info.nr_modules; i++) {
		const struct boot_module *bm = &boot_info.modules[i];

		kprintf("  module %u: %lu bytes at 0x%lx%s%s\n", i, bm->size, bm->paddr,
			bm->cmdline[0] ? " cmdline: " : "", bm->cmdline);
	}
}
