/*
 * Page-table isolation (pti.h): the configuration, the global-page policy
 * and the user PGDs' kernel half.
 *
 * Global pages (pti.global, only with CR4.PGE):
 *   without PTI   every kernel mapping is global (as Linux);
 *   none          no kernel mapping is global;
 *   entry         the entry area (entry text, entry data) is, in both PGDs;
 *   all           the entry area and all kernel text (kernel PGD only: the
 *                 user PGD never maps it, the G bit only lets its TLB
 *                 entries outlive the CR3 switches).
 * A global page has the same frame and permissions in both PGDs, so the TLB
 * holds one consistent translation whichever PGD loaded it.
 *
 * What the user page tables map of the kernel (the exposure): the entry
 * text, the entry data (per-CPU area, GDT, TSS, IDT, IST stacks, the IRET
 * trampoline's entry stack), the vsyscall page, and the frame page of the
 * current task (arch/x86_64/entry/frame_page.h): the top page of its kernel
 * stack, whose last 176 bytes are its user trap frame and whose rest is
 * zero.  Exceptions and interrupts from user mode enter on it (TSS.RSP0 is
 * the stack top, as without PTI), save the registers in place before the
 * switch to the kernel CR3, run their C code below it, and return by IRET
 * from it after the switch back: no copy either way, the CR3 switches are
 * the whole cost.  The page holds nothing the user did not have: its own
 * registers (what Linux's entry stack exposes of them, the hardware frame,
 * is a part of that); no C code runs on it (the entry asm moves RSP below
 * it first, fork's first switch frame sits below it, task stacks get it
 * zeroed), so no kernel pointer or datum lands there.
 * And the espfix window (PML4 slot ESPFIX_PGD_SLOT, its tables shared with
 * the kernel PGD): read-only aliases of one page that holds nothing but the
 * IRET frame of the last return to an LDT SS (arch/x86_64/espfix.h).
 *
 * The mapping follows the context switch (pti_map_frame_page(), from
 * percpu_set_kernel_stack()): one PTE of the template, in a page table the
 * user PGDs share (the template's top-level entry for the direct map exists
 * from pti_init() on, so every user PGD copies it), non-global, supervisor,
 * NX.  The address is the stack's direct-map (or, for init, image) address,
 * whose frame never changes, so a stale translation of a previous task's
 * frame page names that same page: without PCID every exit's CR3 write
 * drops it; with PCID the old address is flushed as a kernel-half change
 * (the loaded user PCID by INVPCID or at the next exit, the other address
 * spaces' slots forgotten), so a freed stack is never reachable from user
 * page tables either.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/espfix.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "mm/pti.h"
#include "mm/tlb.h"
#include "arch/x86_64/entry/frame_page.h"
#include "arch/x86_64/percpu.h"
#include "vsyscall/vsyscall.h"

struct pti_config pti;

/* Kernel half (slots 256-511) copied into every user PGD; NULL without PTI. */
static uint64_t *user_template;
static unsigned template_pages;

void pti_configure(const struct el_cmdline *cl)
{
	pti.on = cl->requested[EL_CFG_PTI] == EL_ON;
	pti.pge = (read_cr4() & CR4_PGE) != 0;
	if (!pti.pge)
		pti.global = EL_GLOBAL_NONE;
	else if (!pti.on)
		pti.global = EL_GLOBAL_ALL;
	else
		pti.global = cl->requested[EL_CFG_GLOBAL];
}

static bool inside(uint64_t va, const char *start, const char *end)
{
	return va >= (uint64_t)start && va < (uint64_t)end;
}

uint64_t pti_image_global(uint64_t va)
{
	if (!pti.pge)
		return 0;
	if (!pti.on)
		return PTE_G;
	if (inside(va, __entry_text_start, __entry_text_end) ||
	    inside(va, __entry_bss_start, __entry_bss_end))
		return pti.global != EL_GLOBAL_NONE ? PTE_G : 0;
	if (pti.global == EL_GLOBAL_ALL && inside(va, __text_start, __text_end))
		return PTE_G;
	return 0;
}

static uint64_t *template_table(uint64_t *t, unsigned idx)
{
	uint64_t pa;

	if (t[idx] & PTE_P)
		return phys_to_virt(t[idx] & PTE_ADDR_MASK);
	pa = frame_alloc_zeroed();
	if (!pa)
		panic("pti: out of frames for the user page tables' entry area");
	template_pages++;
	/* Supervisor-only path: the leaves decide W and NX. */
	t[idx] = pa | PTE_P | PTE_W;
	return phys_to_virt(pa);
}

/* Maps the image pages of [start, end) into the template with flags (and their G policy). */
static void template_map(const char *start, const char *end, uint64_t flags)
{
	uint64_t va;

	for (va = ALIGN_DOWN((uint64_t)start, PAGE_SIZE); va < (uint64_t)end; va += PAGE_SIZE) {
		uint64_t *t = user_template;

		t = template_table(t, PT_INDEX(va, PML4_SHIFT));
		t = template_table(t, PT_INDEX(va, PDPT_SHIFT));
		t = template_table(t, PT_INDEX(va, PD_SHIFT));
		t[PT_INDEX(va, PAGE_SHIFT)] = image_to_phys((void *)va) | flags | PTE_P |
					      pti_image_global(va);
	}
}

/*
 * Kernel-half mappings the kernel made user-accessible (U on the PML4 and
 * PDPT entries: the vsyscall page) are shared below the PDPT level.
 */
static void template_mirror_user_pages(void)
{
	unsigned i, j;

	for (i = PML4_KERNEL_FIRST; i < PT_ENTRIES; i++) {
		const uint64_t *kpdpt;
		uint64_t *pdpt;

		if ((kpaging.pml4[i] & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
			continue;
		kpdpt = phys_to_virt(kpaging.pml4[i] & PTE_ADDR_MASK);
		for (j = 0; j < PT_ENTRIES; j++) {
			if ((kpdpt[j] & (PTE_P | PTE_U)) != (PTE_P | PTE_U))
				continue;
			pdpt = template_table(user_template, i);
			if (pdpt[j] & PTE_P) {
				kprintf("pti: user-accessible kernel mapping at slot %u/%u "
					"shares a table with the entry area: not mapped for "
					"user mode\n", i, j);
				continue;
			}
			pdpt[j] = kpdpt[j];
			user_template[i] |= PTE_U;
		}
	}
}

/*
 * The template's top-level entries for the direct map, where task stacks
 * live: made now, before the first user PGD copies the kernel half, so the
 * frame page's tables below them are shared by every user PGD.
 */
static void template_direct_map_slots(void)
{
	uint64_t va;

	for (va = DIRECT_MAP_BASE; va < DIRECT_MAP_BASE + kpaging.direct_map_end;
	     va += 1ull << PML4_SHIFT)
		template_table(user_template, PT_INDEX(va, PML4_SHIFT));
}

void pti_init(void)
{
	uint64_t pa;

	if (!pti.on)
		return;
	pa = frame_alloc_zeroed();
	if (!pa)
		panic("pti: out of frames for the user page tables' template");
	user_template = phys_to_virt(pa);
	template_pages = 1;
	template_map(__entry_text_start, __entry_text_end, 0);
	template_map(__entry_bss_start, __entry_bss_end, PTE_W | kpaging.nx);
	template_mirror_user_pages();
	template_direct_map_slots();
	/* The espfix window: its tables are shared, its aliases read-only (espfix.h). */
	user_template[ESPFIX_PGD_SLOT] = espfix_pgd_entry();
	kprintf("pti: user page tables map %lu KiB of entry text, %lu KiB of entry data "
		"(%u table pages); global: %s\n",
		(uint64_t)(__entry_text_end - __entry_text_start) >> 10,
		(uint64_t)(__entry_bss_end - __entry_bss_start) >> 10, template_pages,
		(const char *const[]){"none", "entry", "all"}[pti.global]);
}

/* The template PTE of the frame page the user page tables map now, and its address. */
static uint64_t *frame_pte;
static uint64_t frame_va;

/* The template's leaf entry for va, making the tables below the top level as needed. */
static uint64_t *template_pte(uint64_t va)
{
	uint64_t *t = user_template;

	if (!(t[PT_INDEX(va, PML4_SHIFT)] & PTE_P))
		panic("pti: %lx is outside the user page tables' shared top-level entries", va);
	t = template_table(t, PT_INDEX(va, PML4_SHIFT));
	t = template_table(t, PT_INDEX(va, PDPT_SHIFT));
	t = template_table(t, PT_INDEX(va, PD_SHIFT));
	return &t[PT_INDEX(va, PAGE_SHIFT)];
}

void pti_map_frame_page(uint64_t stack_top)
{
	uint64_t va = stack_top - FRAME_PAGE_SIZE, old = frame_va;
	uint64_t *pte;

	if (!user_template || va == frame_va)
		return;
	pte = template_pte(va);
	if (frame_pte)
		*frame_pte = 0;
	*pte = virt_to_phys((const void *)va) | PTE_P | PTE_W | kpaging.nx;
	frame_pte = pte;
	frame_va = va;
	if (old && cpu0.pcid.pcid) {
		tlb_flush_kernel_page(old);
		tlb_flush_user_page(old);
	}
}

void pti_pgd_init(uint64_t *pgd)
{
	if (!pti.on)
		return;
	memcpy(pgd + PT_ENTRIES + PML4_KERNEL_FIRST, user_template + PML4_KERNEL_FIRST,
	       (PT_ENTRIES - PML4_KERNEL_FIRST) * sizeof(uint64_t));
}

void pti_pgd_set(uint64_t *pgd, unsigned idx, uint64_t val)
{
	if (!pti.on) {
		pgd[idx] = val;
		return;
	}
	pgd[PT_ENTRIES + idx] = val;
	pgd[idx] = (val & PTE_P) ? val | kpaging.nx : val;
}

/* The frame of the 4 KiB kernel mapping of va, or ~0 when there is none. */
static uint64_t kernel_frame(uint64_t va)
{
	const uint64_t *t = kpaging.pml4;
	int shift;

	for (shift = PML4_SHIFT; shift > PAGE_SHIFT; shift -= 9) {
		uint64_t e = t[PT_INDEX(va, shift)];

		if (!(e & PTE_P) || (e & PTE_PS))
			return ~0ull;
		t = phys_to_virt(e & PTE_ADDR_MASK);
	}
	return (t[PT_INDEX(va, PAGE_SHIFT)] & PTE_P) ? t[PT_INDEX(va, PAGE_SHIFT)] & PTE_ADDR_MASK
						      : ~0ull;
}

unsigned pti_allowed_areas(struct pti_area *areas, unsigned max)
{
	unsigned n = 0;
	uint64_t vsyscall_pa = kernel_frame(VSYSCALL_ADDR);

	if (max < 5)
		return 0;
	areas[n++] = (struct pti_area){(uint64_t)__entry_text_start, (uint64_t)__entry_text_end,
				       image_to_phys(__entry_text_start)};
	areas[n++] = (struct pti_area){(uint64_t)__entry_bss_start, (uint64_t)__entry_bss_end,
				       image_to_phys(__entry_bss_start)};
	if (vsyscall_pa != ~0ull)
		areas[n++] = (struct pti_area){VSYSCALL_ADDR, VSYSCALL_ADDR + PAGE_SIZE,
					       vsyscall_pa};
	if (frame_va)
		areas[n++] = (struct pti_area){frame_va, frame_va + FRAME_PAGE_SIZE,
					       virt_to_phys((const void *)frame_va)};
	if (espfix_pgd_entry())
		areas[n++] = (struct pti_area){ESPFIX_BASE, ESPFIX_BASE + ESPFIX_WINDOW,
					       image_to_phys(espfix_page), 0, ESPFIX_ALIAS_STRIDE};
	return n;
}
