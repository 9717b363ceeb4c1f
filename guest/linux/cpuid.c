/* Feature bits from CPUID, by features.def, with the leaf ranges respected. */
#include "cpuid.h"

#include <string.h>

#include <entrylab/features.h>

#define LEAF_HV_BASE 0x40000000u
#define LEAF_EXT_BASE 0x80000000u
#define HV_KVM "KVMKVMKVM\0\0\0"

struct cpuid_ranges {
	uint32_t max_leaf, max_ext, max_hv; /* 0: none of that range */
};

static struct cpuid_ranges ranges(linit_cpuid_fn *cpuid, void *ctx)
{
	struct cpuid_ranges r = {0};
	struct linit_cpuid_regs v = cpuid(ctx, 0, 0);
	char sig[12];

	r.max_leaf = v.eax;
	v = cpuid(ctx, LEAF_EXT_BASE, 0);
	r.max_ext = v.eax >= LEAF_EXT_BASE ? v.eax : 0;
	if (r.max_leaf < 1 || !(cpuid(ctx, 1, 0).ecx & (1u << 31)))
		return r; /* no hypervisor bit */
	v = cpuid(ctx, LEAF_HV_BASE, 0);
	memcpy(sig, &v.ebx, 4);
	memcpy(sig + 4, &v.ecx, 4);
	memcpy(sig + 8, &v.edx, 4);
	if (!memcmp(sig, HV_KVM, sizeof(sig)) && v.eax >= LEAF_HV_BASE &&
	    v.eax < LEAF_HV_BASE + 0x100)
		r.max_hv = v.eax;
	return r;
}

static int leaf_valid(const struct cpuid_ranges *r, uint32_t leaf)
{
	if (leaf >= LEAF_EXT_BASE)
		return leaf <= r->max_ext;
	if (leaf >= LEAF_HV_BASE)
		return r->max_hv && leaf <= r->max_hv;
	return leaf <= r->max_leaf;
}

uint64_t linit_cpuid_features(linit_cpuid_fn *cpuid, void *ctx)
{
	struct cpuid_ranges r = ranges(cpuid, ctx);
	uint64_t bits = 0;

	for (unsigned i = 0; i < EL_FEAT_COUNT; i++) {
		const struct el_feature_desc *d = &el_features[i];
		struct linit_cpuid_regs v;
		uint32_t reg[4];

		if (!leaf_valid(&r, d->leaf))
			continue;
		v = cpuid(ctx, d->leaf, d->subleaf);
		reg[EL_REG_EAX] = v.eax;
		reg[EL_REG_EBX] = v.ebx;
		reg[EL_REG_ECX] = v.ecx;
		reg[EL_REG_EDX] = v.edx;
		if (reg[d->reg] & d->mask)
			bits |= 1ull << i;
	}
	return bits;
}

struct linit_cpuid_regs linit_cpuid_insn(void *ctx, uint32_t leaf, uint32_t subleaf)
{
	struct linit_cpuid_regs v;

	(void)ctx;
	__asm__ volatile("cpuid"
			 : "=a"(v.eax), "=b"(v.ebx), "=c"(v.ecx), "=d"(v.edx)
			 : "0"(leaf), "2"(subleaf));
	return v;
}
