/*
 * Which PMU the vCPU has: first from CPUID words alone (pmu_caps_decode),
 * then narrowed by what probing the MSRs found (pmu_caps_probed).
 * Pure (no CPUID, no MSR access, no kernel headers): pmu.c executes the
 * instructions, and the host unit tests feed these functions the words of
 * real and imagined CPUs.
 */
#ifndef EL_PMU_CAPS_H
#define EL_PMU_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "entrylab/abi.h"

/* What the kernel uses at most; KVM offers up to 8 GP (Intel), 6 (AMD), 3 fixed. */
#define PMU_MAX_GP 8u
#define PMU_MAX_FIXED 3u

enum pmu_vendor { PMU_VENDOR_OTHER, PMU_VENDOR_INTEL, PMU_VENDOR_AMD };

/* The CPUID words the decision needs; leaves beyond the maximum read as zero. */
struct pmu_cpuid {
	enum pmu_vendor vendor; /* AMD includes Hygon */
	unsigned family;        /* with the extended family */
	uint32_t max_leaf, max_ext_leaf;
	uint32_t l0a_eax, l0a_ebx, l0a_ecx, l0a_edx; /* CPUID 0AH (Intel) */
	uint32_t e1_ecx;                             /* 80000001H ECX: [23] PerfCtrExtCore */
	uint32_t e22_eax, e22_ebx;                   /* 80000022H: PerfMonV2, counter count */
};

struct pmu_caps {
	enum pmu_vendor vendor;
	struct el_pmu_info info; /* kind, version, counts, widths, usable counters */
	/* Intel: bit e set = architectural event e (CPUID 0AH EBX order) unavailable. */
	uint32_t arch_unavail;
	/* GP counter i: event select at evtsel_base + stride * i, counter at ctr_base + ... */
	uint32_t evtsel_base, ctr_base, stride;
	uint32_t global_ctrl; /* MSR that enables every counter at once; 0 = none */
};

/* Fills caps from CPUID; every enumerated counter is assumed usable until probed. */
void pmu_caps_decode(const struct pmu_cpuid *c, struct pmu_caps *caps);

static inline uint32_t pmu_gp_evtsel(const struct pmu_caps *caps, unsigned i)
{
	return caps->evtsel_base + caps->stride * i;
}

static inline uint32_t pmu_gp_ctr(const struct pmu_caps *caps, unsigned i)
{
	return caps->ctr_base + caps->stride * i;
}

/* What the MSR probe found (pmu.c): each a bit per counter, as el_pmu_info. */
struct pmu_probe {
	uint32_t gp_ok;     /* event select and counter accessible, counter keeps a write */
	uint32_t fixed_ok;  /* fixed counter accessible and keeps a write */
	bool fixed_ctrl_ok; /* IA32_FIXED_CTR_CTRL accessible */
	bool global_ok;     /* the global control MSR accessible */
};

/*
 * Narrows caps to what the probe found.  Without a working global control
 * the counters are enabled one by one (Intel v2 -> v1, which also loses the
 * fixed counters; AMD v2 -> core); no usable counter at all is no PMU.
 */
void pmu_caps_probed(struct pmu_caps *caps, const struct pmu_probe *p);

#endif
