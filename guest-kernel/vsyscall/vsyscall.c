/*
 * The vsyscall page in the kernel's top-level table, per mode (Linux's
 * semantics; vsyscall_emulate.c catches the calls):
 *   native   the page of vsyscall_page.S, user-readable and executable
 *   emulate  the same page user-readable but NX: a call faults and is
 *            emulated; needs EFER.NXE, without it the page is set up as in
 *            xonly and the mode reports `unavailable`
 *   xonly    nothing mapped: reads fault, calls fault not-present and are
 *            emulated
 *   none     nothing mapped, nothing emulated
 * Every address space shares the kernel half of that table, so one mapping
 * serves all processes.  When the page is mapped, the PML4, PDPT and PD
 * entries above it carry the U bit too, as the CPU requires on the whole
 * path; page-table isolation maps what it finds here into the user tables
 * too (mm/pti.c).
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
uint8_t vsyscall_mode = EL_VSYSCALL_NONE;

/* /proc/self/maps permissions per effective mode; NULL: no [vsyscall] line. */
static const char *const maps_perms[] = {
	[EL_VSYSCALL_NATIVE] = "r-xp",
	[EL_VSYSCALL_EMULATE] = "r-xp",
	[EL_VSYSCALL_XONLY] = "--xp",
	[EL_VSYSCALL_NONE] = 0,
};

/* Maps the page user-readable, executable unless nx is PTE_NX. */
static bool map_page(uint64_t nx)
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
		image_to_phys(vsyscall_page) | PTE_P | PTE_U | kpaging.global | nx;
	vsyscall_pd[PT_INDEX(va, PD_SHIFT)] = image_to_phys(vsyscall_pt) | PTE_P | PTE_U;
	pdpt[i3] = image_to_phys(vsyscall_pd) | PTE_P | PTE_U;
	*pml4e |= PTE_U; /* only the path to the page is user: the image's PDPT entries are not */
	/* A permission added on a cached upper-level entry: drop the paging-structure caches. */
	write_cr3(read_cr3());
	return true;
}

/* What each mode puts in the page tables: nothing, or the page executable or NX. */
static const struct {
	bool map;
	bool nx;
} mode_setup[] = {
	[EL_VSYSCALL_NATIVE] = {true, false},
	[EL_VSYSCALL_EMULATE] = {true, true},
	[EL_VSYSCALL_XONLY] = {false, false},
	[EL_VSYSCALL_NONE] = {false, false},
};

uint8_t vsyscall_init(uint8_t requested)
{
	uint8_t mode = requested < ARRAY_SIZE(mode_setup) ? requested : EL_VSYSCALL_NONE;
	uint8_t reported = mode;

	if (mode_setup[mode].nx && !kpaging.nx) {
		/* Without NX a readable page is executable: calls would run natively. */
		kprintf("vsyscall: emulate needs NX (EFER.NXE) to make the page readable but not "
			"executable; the vCPU has none, so the page is execute-only (as xonly)\n");
		mode = EL_VSYSCALL_XONLY;
		reported = EL_CONFIG_UNAVAILABLE;
	}
	if (mode_setup[mode].map && !map_page(mode_setup[mode].nx ? PTE_NX : 0)) {
		kprintf("vsyscall: mode %s requested, none in effect\n",
			config_value_name(EL_CFG_VSYSCALL, mode));
		mode = reported = EL_VSYSCALL_NONE;
	}
	vsyscall_mode = mode;
	return reported;
}

bool vsyscall_mapped(void)
{
	return maps_perms[vsyscall_mode] != 0;
}

const char *vsyscall_maps_perms(void)
{
	return maps_perms[vsyscall_mode];
}
