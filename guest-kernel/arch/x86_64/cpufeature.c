/*
 * CPU identification: vendor, family/model/stepping, brand string and the
 * capability bits, each CPUID leaf read exactly once through the cpuid()
 * accessor.  Leaves beyond the range the CPU reports are not read: CPUs
 * answer those with another leaf's data.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "lib/string.h"

#define LEAF_EXT_BASE 0x80000000u
#define LEAF_HV_BASE 0x40000000u
#define LEAF_CACHE_SIZE 24

struct cpu_info boot_cpu;

static const struct el_feature_desc extra_caps[CAP_COUNT - EL_FEAT_COUNT] = {
	[CAP_FXSR - EL_FEAT_COUNT] = {"fxsr", 1, 0, EL_REG_EDX, 1u << 24, EL_ENF_GUEST},
	[CAP_SSE - EL_FEAT_COUNT] = {"sse", 1, 0, EL_REG_EDX, 1u << 25, EL_ENF_GUEST},
	[CAP_HYPERVISOR - EL_FEAT_COUNT] = {"hypervisor", 1, 0, EL_REG_ECX, 1u << 31,
					    EL_ENF_GUEST},
	[CAP_RDRAND - EL_FEAT_COUNT] = {"rdrand", 1, 0, EL_REG_ECX, 1u << 30, EL_ENF_GUEST},
	[CAP_RDSEED - EL_FEAT_COUNT] = {"rdseed", 7, 0, EL_REG_EBX, 1u << 18, EL_ENF_GUEST},
	[CAP_APIC - EL_FEAT_COUNT] = {"apic", 1, 0, EL_REG_EDX, 1u << 9, EL_ENF_GUEST},
	[CAP_XSAVE - EL_FEAT_COUNT] = {"xsave", 1, 0, EL_REG_ECX, 1u << 26, EL_ENF_CR4},
};

static struct {
	uint32_t leaf, subleaf;
	struct cpuid_regs r;
} leaf_cache[LEAF_CACHE_SIZE];
static unsigned leaf_cached;

static struct cpuid_regs leaf_read(uint32_t leaf, uint32_t subleaf)
{
	unsigned i;

	for (i = 0; i < leaf_cached; i++)
		if (leaf_cache[i].leaf == leaf && leaf_cache[i].subleaf == subleaf)
			return leaf_cache[i].r;
	if (leaf_cached == LEAF_CACHE_SIZE)
		return cpuid(leaf, subleaf);
	leaf_cache[leaf_cached].leaf = leaf;
	leaf_cache[leaf_cached].subleaf = subleaf;
	leaf_cache[leaf_cached].r = cpuid(leaf, subleaf);
	return leaf_cache[leaf_cached++].r;
}

/* Hypervisor leaves are only meaningful as KVM's (kvmclock is KVM's bit). */
static bool leaf_valid(uint32_t leaf)
{
	if (leaf >= LEAF_EXT_BASE)
		return leaf <= boot_cpu.max_ext_leaf;
	if (leaf >= LEAF_HV_BASE)
		return leaf <= boot_cpu.max_hv_leaf && !strcmp(boot_cpu.hv_vendor, "KVMKVMKVM");
	return leaf <= boot_cpu.max_leaf;
}

static bool desc_present(const struct el_feature_desc *d)
{
	struct cpuid_regs r;
	uint32_t regs[4];

	if (!leaf_valid(d->leaf))
		return false;
	r = leaf_read(d->leaf, d->subleaf);
	regs[EL_REG_EAX] = r.eax;
	regs[EL_REG_EBX] = r.ebx;
	regs[EL_REG_ECX] = r.ecx;
	regs[EL_REG_EDX] = r.edx;
	return (regs[d->reg] & d->mask) != 0;
}

static void copy_regs_string(char *dst, const uint32_t *regs, unsigned n)
{
	memcpy(dst, regs, 4 * n);
	dst[4 * n] = '\0';
}

static void identify_base(void)
{
	struct cpuid_regs r = leaf_read(0, 0);
	uint32_t v[3] = {r.ebx, r.edx, r.ecx};
	uint32_t eax, base_family;

	boot_cpu.max_leaf = r.eax;
	copy_regs_string(boot_cpu.vendor, v, 3);

	eax = leaf_read(1, 0).eax;
	base_family = (eax >> 8) & 0xf;
	boot_cpu.family = base_family + (base_family == 0xf ? (eax >> 20) & 0xff : 0);
	boot_cpu.model = (eax >> 4) & 0xf;
	if (base_family == 6 || base_family == 0xf)
		boot_cpu.model |= ((eax >> 16) & 0xf) << 4;
	boot_cpu.stepping = eax & 0xf;

	r = leaf_read(LEAF_EXT_BASE, 0);
	boot_cpu.max_ext_leaf = r.eax >= LEAF_EXT_BASE ? r.eax : 0;
	if (boot_cpu.max_ext_leaf >= LEAF_EXT_BASE + 4) {
		uint32_t b[12];
		unsigned i;

		for (i = 0; i < 3; i++) {
			r = leaf_read(LEAF_EXT_BASE + 2 + i, 0);
			b[4 * i] = r.eax;
			b[4 * i + 1] = r.ebx;
			b[4 * i + 2] = r.ecx;
			b[4 * i + 3] = r.edx;
		}
		copy_regs_string(boot_cpu.brand, b, 12);
	}
}

static void identify_hypervisor(void)
{
	struct cpuid_regs r;
	uint32_t v[3];

	if (!desc_present(&extra_caps[CAP_HYPERVISOR - EL_FEAT_COUNT]))
		return;
	r = leaf_read(LEAF_HV_BASE, 0);
	v[0] = r.ebx;
	v[1] = r.ecx;
	v[2] = r.edx;
	copy_regs_string(boot_cpu.hv_vendor, v, 3);
	boot_cpu.max_hv_leaf = r.eax >= LEAF_HV_BASE && r.eax < LEAF_HV_BASE + 0x100 ? r.eax : 0;
}

void cpu_identify(void)
{
	unsigned i;

	identify_base();
	identify_hypervisor();
	for (i = 0; i < CAP_COUNT; i++) {
		const struct el_feature_desc *d =
			i < EL_FEAT_COUNT ? &el_features[i] : &extra_caps[i - EL_FEAT_COUNT];

		boot_cpu.has[i] = desc_present(d);
		if (i < EL_FEAT_COUNT && boot_cpu.has[i])
			boot_cpu.features |= BIT(i);
	}
}

const char *cpu_cap_name(unsigned cap)
{
	if (cap < EL_FEAT_COUNT)
		return el_features[cap].name;
	if (cap < CAP_COUNT)
		return extra_caps[cap - EL_FEAT_COUNT].name;
	return "?";
}
