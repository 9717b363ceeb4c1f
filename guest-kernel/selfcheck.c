/*
 * Boot self-checks: the kernel verifies its own set-up against the policy
 * it claims in the report.  Each check returns PASS, FAIL or SKIP (does not
 * apply here) and, on failure, leaves the reason in `detail`.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "config.h"
#include "cpu_setup.h"
#include "lib/kprintf.h"
#include "mm/mm.h"
#include "mm/paging.h"
#include "mm/pgtable.h"
#include "mm/pti.h"
#include "mm/ptwalk.h"
#include "mm/upt.h"
#include "selfcheck.h"

enum sc_outcome { SC_PASS, SC_FAIL, SC_SKIP };

typedef enum sc_outcome selfcheck_fn(void);

/* Why the last check failed, printed under its result line. */
static char detail[160];

#define FAIL(...) (ksnprintf(detail, sizeof(detail), __VA_ARGS__), SC_FAIL)

static const struct {
	const char *name, *desc;
} checks[EL_SC_COUNT] = {
#define EL_SELFCHECK(id, name_, desc_) [EL_SC_##id] = {name_, desc_},
#include "entrylab/selfcheck.def"
#undef EL_SELFCHECK
};

static enum sc_outcome check_cr4_policy(void)
{
	uint64_t cr4 = read_cr4(), allowed = cpu_state.cr4_allowed;

	if (cr4 == allowed)
		return SC_PASS;
	return FAIL("CR4 %016lx, allowed %016lx: extra %lx, missing %lx", cr4, allowed,
		    cr4 & ~allowed, allowed & ~cr4);
}

static enum sc_outcome check_efer_policy(void)
{
	bool nxe = rdmsr(MSR_EFER) & EFER_NXE;

	if (nxe == cpu_has(EL_FEAT_NX))
		return SC_PASS;
	return FAIL("EFER.NXE %d, CPUID NX %d", nxe, cpu_has(EL_FEAT_NX));
}

static enum sc_outcome check_user_half_empty(void)
{
	unsigned i, used = 0;

	for (i = 0; i < PML4_KERNEL_FIRST; i++)
		used += (kpaging.pml4[i] & PTE_P) != 0;
	if (!used && (read_cr3() & PTE_ADDR_MASK) == kpaging.pml4_phys)
		return SC_PASS;
	return FAIL("%u user-half PML4 slots present, CR3 %016lx", used, read_cr3());
}

struct leaf_count {
	uint64_t mask;     /* bits examined */
	uint64_t want;     /* value expected under mask */
	uint64_t bad;      /* leaves that differ */
	uint64_t total;
	uint64_t first_va; /* first differing leaf */
};

static void count_leaf(void *ctx, uint64_t va, uint64_t pte, uint64_t size)
{
	struct leaf_count *c = ctx;

	(void)size;
	c->total++;
	if ((pte & c->mask) != c->want && !c->bad++)
		c->first_va = va;
}

static enum sc_outcome count_kernel_leaves(struct leaf_count *c, pt_leaf_fn *fn, const char *what)
{
	pt_walk(kpaging.pml4_phys, PML4_KERNEL_FIRST, PT_ENTRIES - 1, fn, c);
	if (!c->bad && c->total)
		return SC_PASS;
	return FAIL("%lu of %lu kernel leaves %s (first at %016lx)", c->bad, c->total, what,
		    c->first_va);
}

/* A user address the scratch address spaces give a page-table path (no page). */
#define SCRATCH_USER_VA 0x400000ull

/* A throwaway address space, built by the code processes get theirs from. */
static bool scratch_mm(struct mm *mm)
{
	if (mm_create(mm))
		return false;
	if (!upt_pte(mm, SCRATCH_USER_VA, true)) {
		mm_destroy(mm);
		return false;
	}
	return true;
}

/* Counts a leaf as bad when its G bit is not what the policy (mm/pti.c) gives its address. */
static void count_global(void *ctx, uint64_t va, uint64_t pte, uint64_t size)
{
	bool image = va >= KERNEL_VBASE && va < (uint64_t)__kernel_end;
	uint64_t want = image ? pti_image_global(va) : kpaging.global;

	count_leaf(ctx, va, (pte & PTE_G) != want, size);
}

/*
 * Without PTI every kernel leaf is global (with PGE); with PTI the image
 * follows pti.global and the rest is not.  Under PTI the user PGD's entry
 * area is walked too (a scratch address space's, as processes get it).
 */
static enum sc_outcome check_global_bits(void)
{
	struct leaf_count c = {.mask = 1, .want = 0};
	struct mm mm;

	if (count_kernel_leaves(&c, count_global, "carry a G bit pti.global does not give") ==
	    SC_FAIL)
		return SC_FAIL;
	if (!pti.on)
		return SC_PASS;
	if (!scratch_mm(&mm))
		return FAIL("no frames for a scratch address space");
	pt_walk(mm.pgd_phys + PAGE_SIZE, PML4_KERNEL_FIRST, PT_ENTRIES - 1, count_global, &c);
	mm_destroy(&mm);
	if (!c.bad)
		return SC_PASS;
	return FAIL("%lu user-PGD leaves carry a G bit pti.global does not give (first at %016lx)",
		    c.bad, c.first_va);
}

static const uint64_t *direct_map_table(void *ctx, uint64_t phys)
{
	(void)ctx;
	return phys < kpaging.direct_map_end ? phys_to_virt(phys) : 0;
}

/*
 * pti=on: the user PGD of a scratch address space maps, in the kernel
 * half, the entry text and entry data whole and nothing else but the
 * vsyscall page (when the kernel maps it), each at its own frame.
 */
static enum sc_outcome check_pti_user_map(void)
{
	struct pti_area areas[5];
	struct pti_walk_result r = {0};
	struct mm mm;
	unsigned n, i;

	if (!pti.on)
		return SC_SKIP;
	if (!scratch_mm(&mm))
		return FAIL("no frames for a scratch address space");
	n = pti_allowed_areas(areas, ARRAY_SIZE(areas));
	pti_walk_user_kernel_half(mm.pgd + PT_ENTRIES, direct_map_table, 0, areas, n, &r);
	mm_destroy(&mm);
	if (r.bad)
		return FAIL("%lu of %lu kernel-half leaves of the user PGD lie outside the entry "
			    "area (first %016lx -> pte %016lx)", r.bad, r.leaves, r.first_bad_va,
			    r.first_bad_pte);
	for (i = 0; i < 2 && i < n; i++)
		if (areas[i].mapped != areas[i].end - areas[i].start)
			return FAIL("the user PGD maps %lu of the %lu bytes at %016lx",
				    areas[i].mapped, areas[i].end - areas[i].start, areas[i].start);
	return n >= 2 ? SC_PASS : FAIL("no entry area");
}

/* pti=on: a scratch address space's user top-level entries: NX in the kernel PGD, mirrored. */
static enum sc_outcome check_pti_kernel_nx(void)
{
	struct pti_walk_result r = {0};
	struct mm mm;

	if (!pti.on || !kpaging.nx)
		return SC_SKIP;
	if (!scratch_mm(&mm))
		return FAIL("no frames for a scratch address space");
	pti_walk_user_half(mm.pgd, mm.pgd + PT_ENTRIES, kpaging.nx, &r);
	mm_destroy(&mm);
	if (!r.bad && r.leaves)
		return SC_PASS;
	return FAIL("%lu of %lu user top-level entries not NX in the kernel PGD or not mirrored "
		    "(first %016lx: %016lx)", r.bad, r.leaves, r.first_bad_va, r.first_bad_pte);
}

/* Counts a leaf as bad when it is writable and executable: (W, NX) == (1, 0). */
static void count_wx(void *ctx, uint64_t va, uint64_t pte, uint64_t size)
{
	count_leaf(ctx, va, (pte & (PTE_W | PTE_NX)) == PTE_W, size);
}

static enum sc_outcome check_kernel_wx(void)
{
	struct leaf_count c = {.mask = 1, .want = 0};

	if (!kpaging.nx)
		return SC_SKIP;
	return count_kernel_leaves(&c, count_wx, "writable and executable");
}

/*
 * LTR of a selector beyond the GDT limit raises #GP before changing anything,
 * natively under KVM and in TCG alike.  Rejected probes: a reserved CR4 bit
 * (QEMU 7.2 TCG spins on the write instead of raising #GP), unknown MSRs
 * (TCG reads 0), INVPCID without CPUID INVPCID (nested KVM on AMD ends the VM
 * with an emulation failure instead of injecting #UD).
 */
#define SELECTOR_BEYOND_GDT (GDT_ENTRIES * 8 + 8)

static enum sc_outcome check_extable(void)
{
	int vec = load_tr_safe(SELECTOR_BEYOND_GDT);

	if (vec == 13)
		return SC_PASS;
	return FAIL("load_tr_safe(0x%x) returned vector %d, expected 13 (#GP)",
		    SELECTOR_BEYOND_GDT, vec);
}

static selfcheck_fn *const check_fns[EL_SC_COUNT] = {
	[EL_SC_CR4_POLICY] = check_cr4_policy,
	[EL_SC_EFER_POLICY] = check_efer_policy,
	[EL_SC_USER_HALF_EMPTY] = check_user_half_empty,
	[EL_SC_GLOBAL_BITS] = check_global_bits,
	[EL_SC_KERNEL_WX] = check_kernel_wx,
	[EL_SC_EXTABLE] = check_extable,
	[EL_SC_PTI_USER_MAP] = check_pti_user_map,
	[EL_SC_PTI_KERNEL_NX] = check_pti_kernel_nx,
};

struct selfcheck_result selfcheck_run_all(void)
{
	static const char *const outcome_names[] = {"pass", "FAIL", "skip"};
	struct selfcheck_result res = {0, 0};
	unsigned i;

	kprintf("self-checks:\n");
	for (i = 0; i < EL_SC_COUNT; i++) {
		enum sc_outcome o = SC_FAIL;

		ksnprintf(detail, sizeof(detail), "no implementation");
		if (check_fns[i])
			o = check_fns[i]();
		kprintf("  %-16s %s  %s\n", checks[i].name, outcome_names[o], checks[i].desc);
		if (o == SC_FAIL)
			kprintf("      %s\n", detail);
		if (o == SC_SKIP)
			continue;
		res.run |= 1u << i;
		if (o == SC_FAIL)
			res.failed |= 1u << i;
	}
	return res;
}
