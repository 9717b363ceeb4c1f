/*
 * What CPUID says, read once at boot (cpu_identify) into boot_cpu.  Every
 * decision about a CPU feature reads boot_cpu, never CPUID again.
 */
#ifndef EL_CPUFEATURE_H
#define EL_CPUFEATURE_H

#include "entrylab/features.h"
#include "kernel.h"

/*
 * Capabilities: the named features of features.def first (cap == EL_FEAT_*),
 * then a few the kernel needs for itself and nobody toggles.
 */
enum cpu_cap {
	CAP_FXSR = EL_FEAT_COUNT,
	CAP_SSE,
	CAP_HYPERVISOR,
	CAP_RDRAND,
	CAP_RDSEED,
	CAP_APIC,
	CAP_XSAVE,
	CAP_COUNT
};

struct cpu_info {
	char vendor[13];
	char brand[49];
	char hv_vendor[13];       /* "" without a hypervisor leaf */
	uint32_t max_leaf, max_ext_leaf, max_hv_leaf;
	unsigned family, model, stepping;
	uint64_t features;        /* bit i: el_features[i] offered (el_report.cpuid) */
	bool has[CAP_COUNT];
};

extern struct cpu_info boot_cpu;

void cpu_identify(void);

static inline bool cpu_has(unsigned cap)
{
	return cap < CAP_COUNT && boot_cpu.has[cap];
}

const char *cpu_cap_name(unsigned cap);

#endif
