/*
 * Building and loading the kernel's page tables.
 *
 *   image       4 KiB pages: text RX, rodata R+NX, data/bss RW+NX; the entry
 *               text and entry data are page-aligned regions inside these, so
 *               PTI (pti.c) clones exactly them.
 *   direct map  2 MiB pages, RW+NX, over every 2 MiB chunk that holds RAM,
 *               the first 2 MiB (firmware and boot structures) and modules.
 * G bits (only with CR4.PGE): without PTI on every leaf, as in Linux; with
 * PTI on the image pages pti_image_global() names (pti.global) and nowhere
 * else.  Table pages come from the frame allocator; while boot.S's tables
 * are live only frames below BOOT_MAP_SIZE are reachable, and the allocator
 * hands out low frames first.  The top-level table is 8 KiB aligned, so
 * CR3 bit 12 is set only by the user PGD of a PTI pair (the paranoid entry
 * tests it).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/x86.h"
#include "boot/bootinfo.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "mm/pti.h"
#include "mm/tlb.h"

struct kernel_paging kpaging;

/* Image regions and their permissions (PTE_NX is dropped without EFER.NXE). */
static const struct {
	const char *name;
	const char *start, *end;
	uint64_t flags;
} image_regions[] = {
	{"text", __text_start, __text_end, 0},
	{"rodata", __rodata_start, __rodata_end, PTE_NX},
	{"data", __data_start, __kernel_end, PTE_W | PTE_NX},
};

static uint64_t *table_alloc(void)
{
	uint64_t pa = frame_alloc_zeroed();

	if (!pa)
		return 0;
	kpaging.table_pages++;
	return phys_to_virt(pa);
}

/*
 * The table under entry idx of table, created if absent; 0 when out of
 * frames.  `user` adds PTE_U to the entry: the CPU checks U at every level,
 * so a user-accessible kernel-half page (the vsyscall page) needs it on the
 * whole path, while the leaves decide for everything else.
 */
static uint64_t *table_next(uint64_t *table, unsigned idx, uint64_t user)
{
	uint64_t *next;

	if (table[idx] & PTE_P) {
		table[idx] |= user;
		return phys_to_virt(table[idx] & PTE_ADDR_MASK);
	}
	next = table_alloc();
	if (!next)
		return 0;
	table[idx] = virt_to_phys(next) | PTE_P | PTE_W | user;
	return next;
}

/* Maps one page of 4 KiB (level 1) or 2 MiB (level 2). */
static bool map_page(uint64_t va, uint64_t pa, uint64_t flags, int level)
{
	uint64_t user = flags & PTE_U;
	uint64_t *t = kpaging.pml4;

	t = t ? table_next(t, PT_INDEX(va, PML4_SHIFT), user) : 0;
	t = t ? table_next(t, PT_INDEX(va, PDPT_SHIFT), user) : 0;
	if (!t)
		return false;
	if (level == 2) {
		t[PT_INDEX(va, PD_SHIFT)] = pa | flags | PTE_PS;
		return true;
	}
	t = table_next(t, PT_INDEX(va, PD_SHIFT), user);
	if (!t)
		return false;
	t[PT_INDEX(va, PAGE_SHIFT)] = pa | flags;
	return true;
}

bool paging_map_kernel_page(uint64_t va, uint64_t pa, uint64_t flags)
{
	if (va < KERNEL_HALF_START || (va | pa) & (PAGE_SIZE - 1))
		return false;
	if (!map_page(va, pa, flags | PTE_P | kpaging.global, 1))
		return false;
	tlb_flush_kernel_page(va);
	return true;
}

static void map_image(void)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(image_regions); i++) {
		uint64_t va = ALIGN_DOWN((uint64_t)image_regions[i].start, PAGE_SIZE);
		uint64_t end = ALIGN_UP((uint64_t)image_regions[i].end, PAGE_SIZE);
		uint64_t flags = PTE_P | (image_regions[i].flags & ~PTE_NX) |
				 (image_regions[i].flags & kpaging.nx);

		for (; va < end; va += PAGE_SIZE)
			if (!map_page(va, va - KERNEL_VBASE, flags | pti_image_global(va), 1))
				panic("out of frames for the kernel image's page tables");
	}
}

static bool direct_mapped(uint64_t pa)
{
	uint64_t va = DIRECT_MAP_BASE + pa;
	uint64_t e = kpaging.pml4[PT_INDEX(va, PML4_SHIFT)];
	const uint64_t *t;

	if (!(e & PTE_P))
		return false;
	t = phys_to_virt(e & PTE_ADDR_MASK);
	e = t[PT_INDEX(va, PDPT_SHIFT)];
	if (!(e & PTE_P))
		return false;
	t = phys_to_virt(e & PTE_ADDR_MASK);
	return t[PT_INDEX(va, PD_SHIFT)] & PTE_P;
}

/* Maps every 2 MiB chunk overlapping [pa, pa + size); false when out of frames. */
static bool map_direct(uint64_t pa, uint64_t size)
{
	uint64_t flags = PTE_P | PTE_W | kpaging.global | kpaging.nx;
	uint64_t chunk = ALIGN_DOWN(pa, LARGE_PAGE_SIZE);
	uint64_t end = ALIGN_UP(pa + size, LARGE_PAGE_SIZE);

	for (; chunk < end; chunk += LARGE_PAGE_SIZE) {
		if (direct_mapped(chunk))
			continue;
		if (!map_page(DIRECT_MAP_BASE + chunk, chunk, flags, 2))
			return false;
		if (chunk + LARGE_PAGE_SIZE > kpaging.direct_map_end)
			kpaging.direct_map_end = chunk + LARGE_PAGE_SIZE;
	}
	return true;
}

static void map_direct_all(void)
{
	bool ok = map_direct(0, LARGE_PAGE_SIZE);
	unsigned i;

	for (i = 0; ok && i < boot_info.nr_memmap; i++)
		if (boot_info.memmap[i].type == PVH_MEM_RAM)
			ok = map_direct(boot_info.memmap[i].addr, boot_info.memmap[i].size);
	for (i = 0; ok && i < boot_info.nr_modules; i++)
		ok = map_direct(boot_info.modules[i].paddr, boot_info.modules[i].size);
	if (!ok) {
		kpaging.direct_map_cut = true;
		kprintf("paging: out of frames: physical memory above 0x%lx is not mapped\n",
			kpaging.direct_map_end);
	}
}

void paging_init(void)
{
	uint64_t pa = frame_alloc_order(1);

	/* Everything outside the image is global exactly when nothing is isolated. */
	kpaging.global = pti.pge && !pti.on ? PTE_G : 0;
	kpaging.nx = (rdmsr(MSR_EFER) & EFER_NXE) ? PTE_NX : 0;
	if (!pa)
		panic("out of frames for the kernel's top-level page table");
	/* 8 KiB aligned (CR3 bit 12 clear); the second page is not needed. */
	frame_free(pa + PAGE_SIZE);
	kpaging.table_pages++;
	kpaging.pml4 = phys_to_virt(pa);
	memset(kpaging.pml4, 0, PAGE_SIZE);
	kpaging.pml4_phys = pa;
	map_image();
	map_direct_all();
	/*
	 * No stale global entries can survive this write: boot.S's tables had
	 * no G bits.  PCID 0, no NOFLUSH: everything non-global is flushed.
	 */
	write_cr3(kpaging.pml4_phys);
	/* Frames are reachable only where the direct map is contiguous from 0. */
	frame_direct_map_ready(kpaging.direct_map_end);
}

bool paging_unmap_kernel_page(uint64_t va)
{
	uint64_t *t = kpaging.pml4;
	int shift;

	for (shift = PML4_SHIFT; shift > PAGE_SHIFT; shift -= 9) {
		uint64_t e = t[PT_INDEX(va, shift)];

		if (!(e & PTE_P) || (e & PTE_PS))
			return false; /* not a 4 KiB leaf */
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	t[PT_INDEX(va, PAGE_SHIFT)] = 0;
	tlb_flush_kernel_page(va);
	return true;
}
