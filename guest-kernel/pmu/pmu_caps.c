/*
 * PMU discovery from CPUID words (pure; see pmu_caps.h).  Intel: the
 * architectural PMU of leaf 0AH, version 0 meaning none.  AMD: PerfMonV2
 * (80000022H), else the core counters of PerfCtrExtCore, else the four K7
 * counters every AMD CPU since family 6 has (KVM without a vPMU accepts
 * their MSRs and reads zeros: only the probe can tell).
 */
#include "pmu_caps.h"
#include "pmu_msr.h"

#define AMD_LEGACY_COUNTERS 4u
#define AMD_CORE_COUNTERS 6u
#define AMD_COUNTER_WIDTH 48u
#define INTEL_ARCH_EVENTS 8u /* EBX bits the kernel knows (0..7) */

static uint32_t low_bits(unsigned n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static void decode_intel(const struct pmu_cpuid *c, struct pmu_caps *caps)
{
	struct el_pmu_info *info = &caps->info;
	unsigned version = c->max_leaf >= 0xa ? c->l0a_eax & 0xff : 0;
	unsigned ebx_len = c->l0a_eax >> 24, i;

	if (version == 0)
		return;
	info->version = (uint8_t)version;
	info->nr_gp = (uint8_t)min_u((c->l0a_eax >> 8) & 0xff, PMU_MAX_GP);
	info->gp_width = (uint8_t)((c->l0a_eax >> 16) & 0xff);
	/* EBX bit e = 1: event e unavailable; bits past the vector's length say nothing. */
	caps->arch_unavail = (c->l0a_ebx | ~low_bits(ebx_len)) & low_bits(INTEL_ARCH_EVENTS);
	caps->evtsel_base = MSR_IA32_PERFEVTSEL0;
	caps->ctr_base = MSR_IA32_PMC0;
	caps->stride = 1;
	info->gp_usable = low_bits(info->nr_gp);
	if (version == 1) {
		info->kind = EL_PMU_INTEL_V1;
		return;
	}
	info->kind = EL_PMU_INTEL_V2;
	caps->global_ctrl = MSR_IA32_PERF_GLOBAL_CTRL;
	info->nr_fixed = (uint8_t)min_u(c->l0a_edx & 0x1f, PMU_MAX_FIXED);
	info->fixed_width = (uint8_t)((c->l0a_edx >> 5) & 0xff);
	/* Version 5 enumerates fixed counters as a bitmap too: counter i exists if either says. */
	for (i = 0; i < PMU_MAX_FIXED; i++)
		if (i < (c->l0a_edx & 0x1f) || (version >= 5 && (c->l0a_ecx >> i) & 1))
			info->fixed_usable |= 1u << i;
	if (info->fixed_usable && !info->nr_fixed)
		info->nr_fixed = PMU_MAX_FIXED; /* bitmap-only enumeration */
}

static void decode_amd(const struct pmu_cpuid *c, struct pmu_caps *caps)
{
	struct el_pmu_info *info = &caps->info;
	bool v2 = c->max_ext_leaf >= 0x80000022 && (c->e22_eax & 1);
	bool core = c->max_ext_leaf >= 0x80000001 && ((c->e1_ecx >> 23) & 1);

	info->gp_width = AMD_COUNTER_WIDTH;
	if (v2 || core) {
		info->kind = v2 ? EL_PMU_AMD_V2 : EL_PMU_AMD_CORE;
		info->version = v2 ? 2 : 0;
		info->nr_gp = (uint8_t)(v2 ? min_u(c->e22_ebx & 0xf, PMU_MAX_GP)
					   : AMD_CORE_COUNTERS);
		caps->evtsel_base = MSR_F15H_PERF_CTL0;
		caps->ctr_base = MSR_F15H_PERF_CTR0;
		caps->stride = 2;
		caps->global_ctrl = v2 ? MSR_AMD_PERF_GLOBAL_CTL : 0;
	} else if (c->family >= 6) {
		info->kind = EL_PMU_AMD_LEGACY;
		info->nr_gp = AMD_LEGACY_COUNTERS;
		caps->evtsel_base = MSR_K7_EVNTSEL0;
		caps->ctr_base = MSR_K7_PERFCTR0;
		caps->stride = 1;
	} else {
		info->gp_width = 0;
		return;
	}
	info->gp_usable = low_bits(info->nr_gp);
}

void pmu_caps_decode(const struct pmu_cpuid *c, struct pmu_caps *caps)
{
	*caps = (struct pmu_caps){.vendor = c->vendor};
	if (c->vendor == PMU_VENDOR_INTEL)
		decode_intel(c, caps);
	else if (c->vendor == PMU_VENDOR_AMD)
		decode_amd(c, caps);
	if (caps->info.gp_width == 0 && caps->info.nr_gp)
		caps->info.gp_width = 32; /* nothing enumerated: the low half is always there */
}

void pmu_caps_probed(struct pmu_caps *caps, const struct pmu_probe *p)
{
	struct el_pmu_info *info = &caps->info;

	info->gp_usable &= p->gp_ok;
	info->fixed_usable &= p->fixed_ctrl_ok ? p->fixed_ok : 0;
	if (caps->global_ctrl && !p->global_ok) {
		caps->global_ctrl = 0;
		info->fixed_usable = 0; /* fixed counters have no enable bit of their own */
		if (info->kind == EL_PMU_INTEL_V2)
			info->kind = EL_PMU_INTEL_V1;
		else if (info->kind == EL_PMU_AMD_V2)
			info->kind = EL_PMU_AMD_CORE;
	}
	if (!info->gp_usable && !info->fixed_usable) {
		info->kind = EL_PMU_NONE;
		caps->global_ctrl = 0;
	}
}
