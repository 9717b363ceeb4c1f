/*
 * pcid_forget_ctx (guest-kernel/mm/pcid.c): after another address space's
 * translations changed behind its back (process_vm_writev), loading it
 * again must flush both its PCIDs, and no other slot may be touched.
 */
#include <criterion/criterion.h>

#include "guest-kernel/mm/pcid.h"

#define PGD(n) (0x200000ull + (uint64_t)(n) * 0x2000)

Test(pcid_forget, reload_after_forget_flushes)
{
	struct pcid_cpu c;
	uint64_t cr3;

	pcid_cpu_init(&c, 1, 1, 0);
	pcid_switch_mm(&c, PGD(1), 1);
	pcid_switch_mm(&c, PGD(2), 2);
	cr3 = pcid_switch_mm(&c, PGD(1), 1);
	cr_assert(cr3 & CR3_NOFLUSH, "back to a cached slot: no flush");
	pcid_switch_mm(&c, PGD(2), 2);
	pcid_forget_ctx(&c, 1);
	cr3 = pcid_switch_mm(&c, PGD(1), 1);
	cr_assert_not(cr3 & CR3_NOFLUSH, "the forgotten space's kernel PCID is flushed");
	cr_assert_not(c.user_cr3 & CR3_NOFLUSH, "and its user PCID on the next exit");
	cr3 = pcid_switch_mm(&c, PGD(2), 2);
	cr_assert(cr3 & CR3_NOFLUSH, "the other space kept its slot");
}

Test(pcid_forget, loaded_space_and_no_pcid_untouched)
{
	struct pcid_cpu c;

	pcid_cpu_init(&c, 1, 1, 0);
	pcid_switch_mm(&c, PGD(1), 1);
	pcid_forget_ctx(&c, 1);
	cr_assert_eq(c.ctx[c.asid], 1, "the loaded slot stays (the caller flushes it itself)");
	pcid_cpu_init(&c, 1, 0, 0);
	pcid_switch_mm(&c, PGD(1), 1);
	pcid_forget_ctx(&c, 1); /* without PCID every CR3 write flushes: nothing to do */
	cr_assert_eq(c.asid, PCID_NO_ASID);
}
