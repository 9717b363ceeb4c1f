/*
 * CR3 values and TLB-flush decisions for page-table isolation with and
 * without PCID, as pure logic (only <stdint.h>): tlb.c executes what these
 * functions decide, the entry asm loads the values they leave in struct
 * pcid_cpu, and tests/unit/test_pcid.c checks them against a simulated TLB.
 *
 * CR3 under PTI (Linux's layout): the kernel PGD at an 8 KiB aligned
 * address, the user PGD at +4096 (bit 12); with CR4.PCIDE, kernel PCID =
 * ASID slot + 1 (1..PCID_NR_ASIDS; PCID 0 is the kernel's own tables) and
 * user PCID = kernel PCID | bit 11.  Bit 63 (NOFLUSH) keeps the PCID's
 * cached translations; a CR3 write without it flushes the PCID.
 *
 * Lazy user flushes: a user-translation change (munmap, mprotect, COW)
 * cannot INVLPG the user PCID from the kernel's CR3.  With INVPCID the
 * kernel invalidates the address in the user PCID at once; without, the
 * flush is deferred to the next exit to user mode, whose CR3 write then
 * lacks NOFLUSH once.  Linux keeps one bit per PCID (user_pcid_flush_mask)
 * and tests it in the exit asm.  Here the bit of the loaded ASID is folded
 * into the exit's precomputed CR3 value (user_cr3 lacks NOFLUSH while the
 * flush is pending, the asm restores user_cr3_steady after writing it), so
 * the exit path needs no test; user_pcid_flush_mask keeps the bits of the
 * ASIDs that are not loaded, and a switch back to one of them folds its bit
 * in again.
 */
#ifndef EL_MM_PCID_H
#define EL_MM_PCID_H

/* The CR3 bits for asm too (the entry code tests CR3_PTI_USER_PGD). */
#define CR3_PTI_USER_PGD 0x1000  /* user PGD = kernel PGD + 4096 */
#define CR3_PTI_USER_PCID 0x800  /* user PCID = kernel PCID | 0x800 */
#define CR3_PCID_MASK 0xfff

#ifndef __ASSEMBLER__
#include <stdint.h>

#define CR3_NOFLUSH (1ull << 63)
#define PCID_NR_ASIDS 6          /* per-CPU address-space slots, as Linux */
#define PCID_NO_ASID 0xffffffffu /* the kernel's own tables are loaded */

/*
 * Per-CPU state.  The first three words are read (and user_cr3 written) by
 * the entry asm through percpu.h; the rest only by C.
 */
struct pcid_cpu {
	uint64_t kernel_cr3;        /* loaded on entry from user mode (NOFLUSH with PCID) */
	uint64_t user_cr3;          /* loaded on the next exit to user mode */
	uint64_t user_cr3_steady;   /* user_cr3 after that exit (NOFLUSH with PCID) */
	uint32_t pti;               /* user PGDs exist (bit 12 of CR3 on exit) */
	uint32_t pcid;              /* CR4.PCIDE is on */
	uint32_t invpcid;           /* INVPCID may flush user-PCID addresses */
	uint32_t asid;              /* slot of the loaded address space, or PCID_NO_ASID */
	uint32_t next_asid;         /* slot the next new address space takes */
	uint32_t user_pcid_flush_mask; /* bit kPCID: that (unloaded) user PCID is stale */
	uint64_t ctx[PCID_NR_ASIDS];   /* address space each slot holds (ctx id), 0: none */
};

/* What a single-page user flush needs besides the INVLPG of the loaded (kernel) PCID. */
enum pcid_user_flush {
	PCID_USER_FLUSH_NONE,     /* nothing: one PCID for everything (no PCID) */
	PCID_USER_FLUSH_INVPCID,  /* INVPCID individual-address in pcid_user_pcid() */
	PCID_USER_FLUSH_DEFERRED, /* done by the next exit's CR3 write */
};

void pcid_cpu_init(struct pcid_cpu *c, int pti, int pcid, int invpcid);

/*
 * Loads an address space: pgd_phys (8 KiB aligned with PTI), ctx_id unique
 * per address space and never reused (0: the kernel's own tables, PCID 0).
 * Returns the CR3 value to write now and sets kernel_cr3/user_cr3.
 */
uint64_t pcid_switch_mm(struct pcid_cpu *c, uint64_t pgd_phys, uint64_t ctx_id);

/* One user page changed (the caller INVLPGs it in the loaded PCID). */
enum pcid_user_flush pcid_flush_user_page(struct pcid_cpu *c);

/* Every user translation of the loaded address space: returns the CR3 value to write now. */
uint64_t pcid_flush_user_all(struct pcid_cpu *c);

/*
 * A kernel mapping changed (the caller INVLPGs it): the copies other
 * ASIDs cache are stale, so their slots are forgotten (flushed on reuse).
 */
void pcid_invalidate_other(struct pcid_cpu *c);

/*
 * The translations of address space ctx_id (not the loaded one) are stale:
 * its slot is forgotten, so loading it again takes a flushed slot.
 */
void pcid_forget_ctx(struct pcid_cpu *c, uint64_t ctx_id);

/* The loaded user PCID (for INVPCID), 0 without PCID. */
uint64_t pcid_user_pcid(const struct pcid_cpu *c);

/* What the exit asm does (for the tests): returns the CR3 value it writes. */
uint64_t pcid_exit_to_user(struct pcid_cpu *c);
#endif /* __ASSEMBLER__ */

#endif
