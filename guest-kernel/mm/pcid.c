/*
 * CR3 values, ASID slots and user-flush decisions (pcid.h).  Pure: the
 * kernel (tlb.c) and the host unit tests run the same code.
 */
#include "pcid.h"

void pcid_cpu_init(struct pcid_cpu *c, int pti, int pcid, int invpcid)
{
	unsigned i;

	c->kernel_cr3 = c->user_cr3 = c->user_cr3_steady = 0;
	c->pti = pti != 0;
	c->pcid = pcid != 0;
	c->invpcid = c->pcid && invpcid;
	c->asid = PCID_NO_ASID;
	c->next_asid = 0;
	c->user_pcid_flush_mask = 0;
	for (i = 0; i < PCID_NR_ASIDS; i++)
		c->ctx[i] = 0;
}

static uint32_t kpcid_bit(uint32_t asid)
{
	return 1u << (asid + 1);
}

/* Finds the slot caching ctx_id, or takes the next one round robin: 1 if it must be flushed. */
static int choose_asid(struct pcid_cpu *c, uint64_t ctx_id, uint32_t *asid)
{
	uint32_t i;

	for (i = 0; i < PCID_NR_ASIDS; i++) {
		if (c->ctx[i] == ctx_id) {
			*asid = i;
			return 0;
		}
	}
	*asid = c->next_asid;
	c->next_asid = (c->next_asid + 1) % PCID_NR_ASIDS;
	c->ctx[*asid] = ctx_id;
	return 1;
}

uint64_t pcid_switch_mm(struct pcid_cpu *c, uint64_t pgd_phys, uint64_t ctx_id)
{
	uint64_t kpcid;
	uint32_t asid;
	int flush_kernel, flush_user;

	/* A deferred user flush of the slot being left must survive until it is loaded again. */
	if (c->pcid && c->asid != PCID_NO_ASID && !(c->user_cr3 & CR3_NOFLUSH))
		c->user_pcid_flush_mask |= kpcid_bit(c->asid);
	if (!c->pcid || !ctx_id) {
		/* PCID 0: every write flushes what is not global. */
		c->asid = PCID_NO_ASID;
		c->kernel_cr3 = pgd_phys;
		c->user_cr3 = pgd_phys | (c->pti && ctx_id ? CR3_PTI_USER_PGD : 0);
		c->user_cr3_steady = c->user_cr3;
		return pgd_phys;
	}
	flush_kernel = choose_asid(c, ctx_id, &asid);
	flush_user = flush_kernel || (c->user_pcid_flush_mask & kpcid_bit(asid));
	c->user_pcid_flush_mask &= ~kpcid_bit(asid);
	c->asid = asid;
	kpcid = asid + 1;
	c->kernel_cr3 = pgd_phys | kpcid | CR3_NOFLUSH;
	c->user_cr3_steady = c->pti ? pgd_phys | CR3_PTI_USER_PGD | kpcid | CR3_PTI_USER_PCID |
					      CR3_NOFLUSH
				    : c->kernel_cr3;
	c->user_cr3 = flush_user ? c->user_cr3_steady & ~CR3_NOFLUSH : c->user_cr3_steady;
	return flush_kernel ? c->kernel_cr3 & ~CR3_NOFLUSH : c->kernel_cr3;
}

enum pcid_user_flush pcid_flush_user_page(struct pcid_cpu *c)
{
	if (!c->pcid || !c->pti || c->asid == PCID_NO_ASID)
		return PCID_USER_FLUSH_NONE;
	if (c->invpcid)
		return PCID_USER_FLUSH_INVPCID;
	c->user_cr3 &= ~CR3_NOFLUSH;
	return PCID_USER_FLUSH_DEFERRED;
}

uint64_t pcid_flush_user_all(struct pcid_cpu *c)
{
	if (c->pcid && c->pti && c->asid != PCID_NO_ASID)
		c->user_cr3 &= ~CR3_NOFLUSH;
	return c->kernel_cr3 & ~CR3_NOFLUSH;
}

void pcid_invalidate_other(struct pcid_cpu *c)
{
	uint32_t i;

	if (!c->pcid)
		return;
	for (i = 0; i < PCID_NR_ASIDS; i++) {
		if (i == c->asid)
			continue;
		c->ctx[i] = 0;
		c->user_pcid_flush_mask &= ~kpcid_bit(i); /* a forgotten slot is flushed on reuse */
	}
	/* The user PGD maps kernel pages too (the entry area). */
	if (c->pti && c->asid != PCID_NO_ASID)
		c->user_cr3 &= ~CR3_NOFLUSH;
}

void pcid_forget_ctx(struct pcid_cpu *c, uint64_t ctx_id)
{
	uint32_t i;

	if (!c->pcid || !ctx_id)
		return;
	for (i = 0; i < PCID_NR_ASIDS; i++) {
		if (i == c->asid || c->ctx[i] != ctx_id)
			continue;
		c->ctx[i] = 0;
		c->user_pcid_flush_mask &= ~kpcid_bit(i); /* flushed on reuse, as above */
	}
}

uint64_t pcid_user_pcid(const struct pcid_cpu *c)
{
	if (!c->pcid || c->asid == PCID_NO_ASID)
		return 0;
	return (c->asid + 1) | (c->pti ? CR3_PTI_USER_PCID : 0);
}

uint64_t pcid_exit_to_user(struct pcid_cpu *c)
{
	uint64_t v = c->user_cr3;

	c->user_cr3 = c->user_cr3_steady;
	return v;
}
