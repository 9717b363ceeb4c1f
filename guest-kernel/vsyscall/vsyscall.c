/*
 * The vsyscall page in the kernel's top-level table.  Every address space
 * shares the kernel half of that table, so one mapping serves all
 * processes.  `native` (the only mode so far): the page of
 * vsyscall_page.S, user-readable and executable; the PML4, PDPT and PD
 * entries above it carry the U bit too, as the CPU requires on the whole
 * path.  The other modes (emulate, xonly, none) install nothing yet: they
 * come with the page-fault emulation of the entry-variants issue, and until
 * then they are reported as `none`, which is what a process sees.
 */
#include "arch/x86_64/cpu.h"
#include "config.h"
#include "lib/kprintf.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "vdso/vdso.h"
#include "vsyscall/vsyscall.h"

extern const char vsyscall_page[], vsyscall_page_end[];

static uint64_t vsyscall_pd[PT_ENTRIES] __page_aligned_bss;
static uint64_t vsyscall_pt[PT_ENTRIES] __page_aligned_bss;
static uint8_t vsyscall_mode = EL_VSYSCALL_NONE;

/* /proc/self/maps permissions per effective mode; NULL: no [vsyscall] line. */
static const char *const maps_perms[] = {
	[EL_VSYSCALL_NATIVE] = "r-xp",
	[EL_VSYSCALL_EMULATE] = "r-xp",
	[EL_VSYSCALL_XONLY] = "--xp",
	[EL_VSYSCALL_NONE] = 0,
};

static bool map_native(void)
{
	uint64_t va = VSYSCALL_ADDR, *pml4e = &kpaging.pml4[PT_INDEX(va, PML4_SHIFT)], *pdpt;
	unsigned i3 = PT_INDEX(va, PDPT_SHIFT);

	_Static_assert(PT_INDEX(VSYSCALL_ADDR, PML4_SHIFT) == PT_ENTRIES - 1, "the top PML4 slot");
	if (vsyscall_page_end - vsyscall_page != PAGE_SIZE) {
		kprintf("vsyscall: the page is %ld bytes, not one page\n",
			(long)(vsyscall_page_end - vsyscall_page));
		return false;
	}
	/* The kernel image lives in the same PML4 slot, so its PDPT exists. */
	pdpt = phys_to_virt(*pml4e & PTE_ADDR_MASK);
	if (!(*pml4e & PTE_P) || (pdpt[i3] & PTE_P)) {
		kprintf("vsyscall: the kernel's tables already use the PDPT slot of %lx\n", va);
		return false;
	}
	vsyscall_pt[PT_INDEX(va, PAGE_SHIFT)] =
		image_to_phys(vsyscall_page) | PTE_P | PTE_U | kpaging.global;
	vsyscall_pd[PT_INDEX(va, PD_SHIFT)] = image_to_phys(vsyscall_pt) | PTE_P | PTE_U;
	pdpt[i3] = image_to_phys(vsyscall_pd) | PTE_P | PTE_U;
	*pml4e |= PTE_U; /* only the path to the page is user: the image's PDPT entries are not */
	/* A permission added on a cached upper-level entry: drop the paging-structure caches. */
	write_cr3(read_cr3());
	return true;
}

uint8_t vsyscall_init(uint8_t requested)
{
	if (requested == EL_VSYSCALL_NATIVE && map_native())
		vsyscall_mode = EL_VSYSCALL_NATIVE;
	else
		vsyscall_mode = EL_VSYSCALL_NONE;
	if (requested != vsyscall_mode)
		kprintf("vsyscall: mode %s requested, %s in effect (only native exists so far)\n",
			config_value_name(EL_CFG_VSYSCALL, requested),
			config_value_name(EL_CFG_VSYSCALL, vsyscall_mode));
	return vsyscall_mode;
}

bool vsyscall_mapped(void)
{
	return maps_perms[vsyscall_mode] != 0;
}

const char *vsyscall_maps_perms(void)
{
	return maps_perms[vsyscall_mode];
}
