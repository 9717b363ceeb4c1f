/*
 * PCID, CR3 values and lazy user flushes (guest-kernel/mm/pcid.c) against a
 * simulated CPU: a TLB per PCID that caches one translation version per
 * page, CR3 writes that flush a PCID unless NOFLUSH, INVLPG in the loaded
 * PCID, INVPCID in any.  Random runs of the kernel's protocol (entries,
 * exits, mapping changes, address-space switches, execs) must never read
 * a stale translation, in every mode; and a broken protocol must be caught,
 * or the simulation would prove nothing.
 *
 * These paths cannot run in the guest here: QEMU TCG offers no PCID, and
 * neither does the nested runner built on it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/mm/pcid.h"

#define NPAGES 8
#define NMM 9
#define PGD(m) (0x100000ull + (uint64_t)(m) * 0x2000)

struct sim {
	struct pcid_cpu c;
	int pcid_on, invpcid_on;
	int skip_user_flush; /* the bug the simulation must catch */
	uint64_t cr3;        /* without NOFLUSH, as CR3 reads show it */
	int in_user;
	unsigned cur;        /* loaded address space */
	uint64_t ctx[NMM];
	uint64_t next_ctx;
	uint32_t pt[NMM][NPAGES];    /* translation version of each page */
	uint32_t tlb[4096][NPAGES];  /* cached version + 1 per PCID, 0: none */
	unsigned long stale, exits, flushing_exits;
	uint64_t rng;
};

static struct sim S;

static unsigned rnd(unsigned n)
{
	S.rng = S.rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(S.rng >> 33) % n;
}

static unsigned pcid_of(uint64_t cr3)
{
	return S.pcid_on ? (unsigned)(cr3 & CR3_PCID_MASK) : 0;
}

static void write_cr3(uint64_t v)
{
	unsigned p;

	/* Bit 63 is reserved without CR4.PCIDE (a #GP), and so are PCID bits. */
	if (!S.pcid_on)
		cr_assert((v >> 63) == 0 && (v & CR3_PCID_MASK) == 0, "CR3 %llx without PCID",
			  (unsigned long long)v);
	p = pcid_of(v);
	if (!S.pcid_on || !(v >> 63))
		memset(S.tlb[p], 0, sizeof(S.tlb[p]));
	S.cr3 = v & ~CR3_NOFLUSH;
}

static void access_page(unsigned page)
{
	unsigned p = pcid_of(S.cr3);
	uint32_t want = S.pt[S.cur][page] + 1;

	if (S.tlb[p][page] && S.tlb[p][page] != want)
		S.stale++;
	S.tlb[p][page] = want;
}

static void enter_kernel(void)
{
	write_cr3(S.c.kernel_cr3);
	cr_assert_eq(S.cr3 & ~CR3_PCID_MASK, PGD(S.cur), "entry CR3 is not the kernel PGD");
	S.in_user = 0;
}

static void exit_to_user(void)
{
	uint64_t v = pcid_exit_to_user(&S.c);

	S.exits++;
	S.flushing_exits += !(v >> 63);
	write_cr3(v);
	cr_assert_eq(S.cr3 & ~CR3_PCID_MASK, PGD(S.cur) | CR3_PTI_USER_PGD,
		     "exit CR3 is not the user PGD");
	if (S.pcid_on)
		cr_assert_eq(S.cr3 & CR3_PCID_MASK, pcid_user_pcid(&S.c), "user PCID");
	S.in_user = 1;
}

/* The kernel changes one translation of the loaded space, then flushes as tlb.c does. */
static void change_page(unsigned page)
{
	S.pt[S.cur][page]++;
	S.tlb[pcid_of(S.cr3)][page] = 0; /* INVLPG */
	if (S.skip_user_flush)
		return;
	if (pcid_flush_user_page(&S.c) == PCID_USER_FLUSH_INVPCID) {
		cr_assert(S.invpcid_on, "INVPCID without INVPCID");
		S.tlb[pcid_user_pcid(&S.c)][page] = 0;
	}
}

static void change_all(void)
{
	unsigned i;

	for (i = 0; i < NPAGES; i++)
		S.pt[S.cur][i]++;
	write_cr3(pcid_flush_user_all(&S.c));
}

static void switch_to(unsigned m)
{
	S.cur = m;
	write_cr3(pcid_switch_mm(&S.c, PGD(m), S.ctx[m]));
}

/* exec: the space gets new mappings and a new ctx id (ids are never reused). */
static void exec_in(unsigned m)
{
	unsigned i;

	for (i = 0; i < NPAGES; i++)
		S.pt[m][i] += 100;
	S.ctx[m] = ++S.next_ctx;
	switch_to(m);
}

static void setup(int pcid, int invpcid)
{
	unsigned m;

	memset(&S, 0, sizeof(S));
	S.rng = 42;
	S.pcid_on = pcid;
	S.invpcid_on = invpcid;
	pcid_cpu_init(&S.c, 1, pcid, invpcid);
	write_cr3(pcid_switch_mm(&S.c, 0x1000000, 0));
	for (m = 0; m < NMM; m++)
		S.ctx[m] = ++S.next_ctx;
	switch_to(0);
}

static void run(unsigned long steps)
{
	unsigned long i;

	for (i = 0; i < steps; i++) {
		unsigned op = rnd(100);

		if (S.in_user) {
			if (op < 70)
				access_page(rnd(NPAGES));
			else
				enter_kernel();
			continue;
		}
		if (op < 30)
			exit_to_user();
		else if (op < 50)
			change_page(rnd(NPAGES));
		else if (op < 60)
			access_page(rnd(NPAGES)); /* copy_from_user through the kernel PCID */
		else if (op < 63)
			change_all();
		else if (op < 80)
			switch_to(rnd(NMM));
		else if (op < 82)
			exec_in(rnd(NMM));
	}
}

Test(pcid, no_stale_translation_without_pcid)
{
	setup(0, 0);
	run(200000);
	cr_expect_eq(S.stale, 0, "%lu stale reads", S.stale);
	cr_expect_eq(S.flushing_exits, S.exits, "without PCID every CR3 write flushes");
}

Test(pcid, no_stale_translation_with_pcid_deferred)
{
	setup(1, 0);
	run(200000);
	cr_expect_eq(S.stale, 0, "%lu stale reads", S.stale);
	cr_expect(S.flushing_exits > 0 && S.flushing_exits < S.exits,
		  "exits that flushed the user PCID: %lu of %lu", S.flushing_exits, S.exits);
}

Test(pcid, no_stale_translation_with_invpcid)
{
	setup(1, 1);
	run(200000);
	cr_expect_eq(S.stale, 0, "%lu stale reads", S.stale);
	/* Only new slots and whole-space flushes still flush at exit. */
	cr_expect(S.flushing_exits < S.exits, "flushing exits %lu of %lu", S.flushing_exits,
		  S.exits);
}

Test(pcid, simulation_catches_a_missed_user_flush)
{
	setup(1, 0);
	S.skip_user_flush = 1;
	run(200000);
	cr_expect(S.stale > 0, "a protocol without user-PCID flushes went unnoticed");
}

Test(pcid, cr3_values)
{
	struct pcid_cpu c;
	uint64_t v;

	pcid_cpu_init(&c, 1, 1, 0);
	v = pcid_switch_mm(&c, 0x200000, 7);
	cr_expect_eq(v, 0x200000 | 1, "a new slot flushes the kernel PCID: %llx",
		     (unsigned long long)v);
	cr_expect_eq(c.kernel_cr3, 0x200000 | 1 | CR3_NOFLUSH);
	cr_expect_eq(c.user_cr3_steady, 0x201000 | 0x801 | CR3_NOFLUSH);
	cr_expect_eq(c.user_cr3, 0x201000 | 0x801, "a new slot flushes the user PCID once");
	cr_expect_eq(pcid_exit_to_user(&c), 0x201000 | 0x801);
	cr_expect_eq(pcid_exit_to_user(&c), 0x201000 | 0x801 | CR3_NOFLUSH);
	cr_expect_eq(pcid_user_pcid(&c), 0x801);
	cr_expect_eq(pcid_flush_user_page(&c), PCID_USER_FLUSH_DEFERRED);
	cr_expect_eq(pcid_exit_to_user(&c), 0x201000 | 0x801, "the deferred flush");
	cr_expect_eq(pcid_exit_to_user(&c) >> 63, 1, "consumed once");
	cr_expect_eq(pcid_flush_user_all(&c), 0x200000 | 1, "a full flush reloads without NOFLUSH");
	/* Another space, then back: slot kept, pending user flush carried over. */
	pcid_flush_user_page(&c);
	v = pcid_switch_mm(&c, 0x400000, 8);
	cr_expect_eq(v, 0x400000 | 2);
	v = pcid_switch_mm(&c, 0x200000, 7);
	cr_expect_eq(v, 0x200000 | 1 | CR3_NOFLUSH, "a cached slot keeps its translations");
	cr_expect_eq(c.user_cr3, 0x201000 | 0x801, "the pending user flush survived the switch");
	/* The kernel's own tables: PCID 0, flushing. */
	cr_expect_eq(pcid_switch_mm(&c, 0x1000000, 0), 0x1000000);
	cr_expect_eq(pcid_user_pcid(&c), 0);
}

Test(pcid, invalidate_other_forgets_other_slots)
{
	struct pcid_cpu c;

	pcid_cpu_init(&c, 1, 1, 1);
	pcid_switch_mm(&c, 0x200000, 1);
	pcid_switch_mm(&c, 0x400000, 2);
	pcid_invalidate_other(&c);
	cr_expect_eq(pcid_switch_mm(&c, 0x200000, 1) >> 63, 0, "slot 1 must flush after a kernel "
		     "mapping change");
	cr_expect_eq(pcid_switch_mm(&c, 0x400000, 2) >> 63, 1, "the loaded slot was INVLPGed");
}

Test(pcid, slots_are_recycled_round_robin)
{
	struct pcid_cpu c;
	unsigned i;

	pcid_cpu_init(&c, 1, 1, 1);
	for (i = 1; i <= PCID_NR_ASIDS + 1; i++)
		cr_expect_eq(pcid_switch_mm(&c, 0x200000 * i, i) & CR3_PCID_MASK,
			     (i - 1) % PCID_NR_ASIDS + 1);
	cr_expect_eq(pcid_switch_mm(&c, 0x200000, 1) >> 63, 0, "evicted: must flush");
}

Test(pcid, without_pti_there_is_no_user_pgd)
{
	struct pcid_cpu c;

	pcid_cpu_init(&c, 0, 0, 0);
	cr_expect_eq(pcid_switch_mm(&c, 0x200000, 3), 0x200000);
	cr_expect_eq(pcid_flush_user_page(&c), PCID_USER_FLUSH_NONE);
	cr_expect_eq(pcid_flush_user_all(&c), 0x200000);
}
