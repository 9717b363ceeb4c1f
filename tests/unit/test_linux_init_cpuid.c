/*
 * entrylab's /init for Linux: el_report.cpuid from CPUID by features.def
 * (guest/linux/cpuid.c), leaf ranges respected, fed from tables.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/features.h"
#include "guest/linux/cpuid.h"

struct leaf {
	uint32_t leaf, subleaf;
	struct linit_cpuid_regs r;
};

struct cpu {
	const struct leaf *leaves;
	size_t n;
};

/* Unknown leaves answer with garbage (all ones), as a CPU may past its range. */
static struct linit_cpuid_regs fake(void *ctx, uint32_t leaf, uint32_t subleaf)
{
	const struct cpu *c = ctx;
	struct linit_cpuid_regs ones = {~0u, ~0u, ~0u, ~0u};

	for (size_t i = 0; i < c->n; i++)
		if (c->leaves[i].leaf == leaf && c->leaves[i].subleaf == subleaf)
			return c->leaves[i].r;
	return ones;
}

#define BIT(f) (1ull << EL_FEAT_##f)
/* "KVMKVMKVM\0\0\0" as EBX, ECX, EDX. */
#define KVM_SIG 0x4b4d564bu, 0x564b4d56u, 0x4du

Test(linux_init_cpuid, features_by_leaf)
{
	static const struct leaf l[] = {
		{0, 0, {7, 0, 0, 0}},
		{1, 0, {0, 0, (1u << 17) | (1u << 31), 1u << 13}}, /* pcid, hypervisor; pge */
		{7, 0, {0, (1u << 10) | (1u << 7), 1u << 16, 0}},  /* invpcid smep; la57 */
		{0x40000000, 0, {0x40000001, KVM_SIG}},
		{0x40000001, 0, {1u << 3, 0, 0, 0}},              /* kvmclock */
		{0x80000000, 0, {0x80000008, 0, 0, 0}},
		{0x80000001, 0, {0, 0, 0, (1u << 20) | (1u << 27)}}, /* nx rdtscp */
		{0x80000007, 0, {0, 0, 0, 1u << 8}},                /* invtsc */
	};
	struct cpu c = {l, EL_ARRAY_SIZE(l)};
	uint64_t want = BIT(PCID) | BIT(PGE) | BIT(INVPCID) | BIT(SMEP) | BIT(LA57) |
			BIT(KVMCLOCK) | BIT(NX) | BIT(RDTSCP) | BIT(INVTSC);

	cr_expect_eq(linit_cpuid_features(fake, &c), want, "got 0x%llx want 0x%llx",
		     (unsigned long long)linit_cpuid_features(fake, &c), (unsigned long long)want);
}

Test(linux_init_cpuid, leaves_past_the_range_are_not_read)
{
	static const struct leaf l[] = {
		{0, 0, {1, 0, 0, 0}},                   /* no leaf 7, no 0xA */
		{1, 0, {0, 0, 0, 1u << 13}},             /* pge; no hypervisor bit */
		{0x80000000, 0, {0x80000001, 0, 0, 0}}, /* no 0x80000007 */
		{0x80000001, 0, {0, 0, 0, 1u << 20}},
	};
	struct cpu c = {l, EL_ARRAY_SIZE(l)};

	cr_expect_eq(linit_cpuid_features(fake, &c), BIT(PGE) | BIT(NX),
		     "the all-ones answers past the range must not count");
}

Test(linux_init_cpuid, kvmclock_only_from_kvm)
{
	static const struct leaf l[] = {
		{0, 0, {1, 0, 0, 0}},
		{1, 0, {0, 0, 1u << 31, 0}},
		{0x40000000, 0, {0x40000001, 0x7263694d, 0x666f736f, 0x76482074}}, /* Hyper-V */
		{0x40000001, 0, {1u << 3, 0, 0, 0}},
		{0x80000000, 0, {0, 0, 0, 0}},
	};
	struct cpu c = {l, EL_ARRAY_SIZE(l)};

	cr_expect_eq(linit_cpuid_features(fake, &c), 0ull);
}

Test(linux_init_cpuid, the_instruction_answers)
{
	/* Leaf 0 on this host: some vendor string, a max leaf of at least 1. */
	struct linit_cpuid_regs r = linit_cpuid_insn(NULL, 0, 0);

	cr_expect_geq(r.eax, 1u);
	cr_expect_neq(r.ebx, 0u);
}
