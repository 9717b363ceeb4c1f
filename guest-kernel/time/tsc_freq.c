/*
 * The TSC frequency when kvmclock does not give it, from the first source
 * that knows: the hypervisor's timing leaf (0x40000010, VMware's, also
 * QEMU/KVM's), the VMM (el.tsc_khz, KVM_GET_TSC_KHZ: the vCPU's real rate),
 * then the CPU's own leaves 0x15 (crystal ratio) and 0x16 (base MHz), which
 * describe the host's TSC and are right only without TSC scaling; last,
 * outside entrylab's VMM, a measurement against the PIT (legacy_pc.c).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "config.h"
#include "time_math.h"
#include "time/time_priv.h"

#define LEAF_HV_TIMING 0x40000010u

typedef uint64_t khz_source_fn(void);

static uint64_t khz_hv_leaf(void)
{
	if (boot_cpu.max_hv_leaf < LEAF_HV_TIMING)
		return 0;
	return cpuid(LEAF_HV_TIMING, 0).eax;
}

static uint64_t khz_cmdline(void)
{
	return kernel_cmdline.tsc_khz;
}

static uint64_t khz_leaf15(void)
{
	struct cpuid_regs r;

	if (boot_cpu.max_leaf < 0x15)
		return 0;
	r = cpuid(0x15, 0);
	return tsc_khz_from_leaf15(r.eax, r.ebx, r.ecx);
}

static uint64_t khz_leaf16(void)
{
	if (boot_cpu.max_leaf < 0x16)
		return 0;
	return (uint64_t)(cpuid(0x16, 0).eax & 0xffff) * 1000;
}

static uint64_t khz_pit(void)
{
	return legacy_pc_usable() ? pit_tsc_khz() : 0;
}

static const struct {
	const char *name;
	khz_source_fn *fn;
} khz_sources[] = {
	{"CPUID 0x40000010", khz_hv_leaf},
	{"el.tsc_khz", khz_cmdline},
	{"CPUID 0x15", khz_leaf15},
	{"CPUID 0x16", khz_leaf16},
	{"the PIT", khz_pit},
};

uint64_t tsc_freq_detect(const char **source)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(khz_sources); i++) {
		uint64_t khz = khz_sources[i].fn();

		/* Only what the clock can use: tsc_khz_to_mult() rejects the rest. */
		if (tsc_khz_to_mult(khz)) {
			*source = khz_sources[i].name;
			return khz;
		}
	}
	*source = "nothing";
	return 0;
}
