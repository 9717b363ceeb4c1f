/*
 * TLB flushes and CR3 loads (tlb.h).  pcid.c decides, this file executes:
 *   no PCID        INVLPG per page; a CR3 write (keeping global entries)
 *                  flushes everything else, both PGDs of a PTI pair alike;
 *   PCID (PTI)     INVLPG for the kernel PCID, then the user PCID either by
 *                  INVPCID at once or by the next exit's flushing CR3 write.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "mm/layout.h"
#include "mm/paging.h"
#include "mm/pcid.h"
#include "mm/pti.h"
#include "mm/tlb.h"

void tlb_init(const struct el_cmdline *cl)
{
	bool pcid = (read_cr4() & CR4_PCIDE) != 0, invpcid = false;
	int vec;

	/*
	 * Some KVMs end the VM instead of raising #UD for INVPCID without the
	 * CPUID bit: never try it unless CPUID offers it.
	 */
	if (pcid && cpu_has(EL_FEAT_INVPCID) && cl->requested[EL_CFG_INVPCID] != EL_OFF) {
		vec = invpcid_safe(INVPCID_ADDR, 0, 0);
		invpcid = !vec;
		if (vec)
			kprintf("tlb: CPUID offers INVPCID but it raised vector %d: unused\n", vec);
	}
	pcid_cpu_init(&cpu0.pcid, pti.on, pcid, invpcid);
	cpu0.cr3_noflush = pcid ? CR3_NOFLUSH : 0;
	/* The kernel's tables are loaded already: record them without writing CR3 again. */
	pcid_switch_mm(&cpu0.pcid, kpaging.pml4_phys, 0);
}

bool tlb_invpcid_in_use(void)
{
	return cpu0.pcid.invpcid != 0;
}

/* User-page flushes by kind (only with PCID: NONE is not counted), for the console. */
static uint64_t user_flushes[PCID_USER_FLUSH_DEFERRED + 1];

void tlb_flush_user_page(uint64_t va)
{
	enum pcid_user_flush how;

	__asm__ __volatile__("invlpg (%0)" : : "r"(va) : "memory");
	how = pcid_flush_user_page(&cpu0.pcid);
	if (how == PCID_USER_FLUSH_NONE)
		return;
	user_flushes[how]++;
	if (how == PCID_USER_FLUSH_INVPCID)
		invpcid(INVPCID_ADDR, pcid_user_pcid(&cpu0.pcid), va);
}

void tlb_print_stats(void)
{
	if (!cpu0.pcid.pcid || !cpu0.pcid.pti)
		return;
	kprintf("tlb: user-page flushes in a user PCID: %lu by INVPCID, %lu deferred to the "
		"exit\n", user_flushes[PCID_USER_FLUSH_INVPCID],
		user_flushes[PCID_USER_FLUSH_DEFERRED]);
}

void tlb_flush_user_range(uint64_t start, uint64_t end)
{
	if ((end - start) / PAGE_SIZE > TLB_SINGLE_PAGE_CEILING) {
		tlb_flush_user_all();
		return;
	}
	for (; start < end; start += PAGE_SIZE)
		tlb_flush_user_page(start);
}

void tlb_flush_user_all(void)
{
	write_cr3(pcid_flush_user_all(&cpu0.pcid));
}

void tlb_flush_kernel_page(uint64_t va)
{
	/* INVLPG drops global entries of va in every PCID, others only in the loaded one. */
	invlpg(va);
	pcid_invalidate_other(&cpu0.pcid);
}

void tlb_switch_to(uint64_t pgd_phys)
{
	write_cr3(pcid_switch_mm(&cpu0.pcid, pgd_phys, 0));
}

void tlb_switch_mm(uint64_t pgd_phys, uint64_t ctx_id)
{
	write_cr3(pcid_switch_mm(&cpu0.pcid, pgd_phys, ctx_id));
}

void tlb_forget_mm(uint64_t ctx_id)
{
	pcid_forget_ctx(&cpu0.pcid, ctx_id);
}
