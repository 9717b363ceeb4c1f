/*
 * The espfix window's page tables and who needs it (espfix.h).
 *
 * One chain of three table pages makes every alias: the PML4 entry at
 * ESPFIX_PGD_SLOT -> a PDPT whose first four entries (4 GiB) -> one page
 * directory whose 512 entries -> one page table whose every 16th entry
 * (one per 64 KiB) -> espfix_page, read-only, supervisor, NX, and global as
 * any kernel mapping outside the image is (pti_image_global(): without PTI
 * and with PGE, as Linux's __PAGE_KERNEL_RO; never under PTI).
 * So ESPFIX_BASE + (x & 0xffff0000) + ESPFIX_FRAME_OFF is the frame for any
 * x.  The aliases are read-only for two reasons: nothing but the exit writes
 * the frame (through espfix_page, before the switch to the user CR3), and a
 * fault of the IRET there must not push its frame (espfix.h: it becomes a
 * #DF the kernel recognises).
 */
#include "arch/x86_64/espfix.h"
#include "lib/panic.h"
#include "mm/frame.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "mm/pti.h"
#include "proc/process.h"

uint64_t espfix_page[PAGE_SIZE / 8] __aligned(PAGE_SIZE);

#define ESPFIX_PDPT_ENTRIES (ESPFIX_WINDOW >> PDPT_SHIFT)
#define ESPFIX_PT_STRIDE    (ESPFIX_ALIAS_STRIDE / PAGE_SIZE)
_Static_assert(ESPFIX_PDPT_ENTRIES == 4 && ESPFIX_PT_STRIDE == 16, "the window's geometry");
_Static_assert((ESPFIX_BASE >> PML4_SHIFT & (PT_ENTRIES - 1)) == ESPFIX_PGD_SLOT,
	       "ESPFIX_BASE is in its slot");

static uint64_t *espfix_table(void)
{
	uint64_t pa = frame_alloc_zeroed();

	if (!pa)
		panic("espfix: out of frames for the espfix window's page tables");
	kpaging.table_pages++;
	return phys_to_virt(pa);
}

void espfix_init(void)
{
	uint64_t *pdpt = espfix_table(), *pd = espfix_table(), *pt = espfix_table();
	unsigned i;

	if (kpaging.pml4[ESPFIX_PGD_SLOT] & PTE_P)
		panic("espfix: PML4 slot %u is in use", ESPFIX_PGD_SLOT);
	for (i = 0; i < PT_ENTRIES; i += ESPFIX_PT_STRIDE)
		pt[i] = image_to_phys(espfix_page) | PTE_P | PTE_A | kpaging.nx |
			pti_image_global(ESPFIX_BASE);
	for (i = 0; i < PT_ENTRIES; i++)
		pd[i] = virt_to_phys(pt) | PTE_P | PTE_W | PTE_A;
	for (i = 0; i < ESPFIX_PDPT_ENTRIES; i++)
		pdpt[i] = virt_to_phys(pd) | PTE_P | PTE_W | PTE_A;
	kpaging.pml4[ESPFIX_PGD_SLOT] = virt_to_phys(pdpt) | PTE_P | PTE_W | PTE_A;
}

uint64_t espfix_pgd_entry(void)
{
	return kpaging.pml4[ESPFIX_PGD_SLOT];
}

void espfix_track(struct task *t)
{
	if (t->mm && t->mm->ldt)
		t->work |= TASK_WORK_ESPFIX;
	else
		t->work &= ~TASK_WORK_ESPFIX;
}
