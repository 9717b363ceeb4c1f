/*
 * el_report.cpuid for Linux: bit i when CPUID offers feature i of
 * features.def, read with the CPUID instruction exactly as entrylab's kernel
 * reads it (guest-kernel/arch/x86_64/cpufeature.c): leaves past the range
 * the CPU reports are not read, hypervisor leaves only as KVM's.  CPUID is
 * the abi.h meaning of the field ("seen in CPUID"); what Linux makes of it
 * (nopcid clearing its pcid flag) is the config, from /proc/cpuinfo.
 * Pure given the CPUID function: the host unit tests feed tables.
 */
#ifndef LINIT_CPUID_H
#define LINIT_CPUID_H

#include <stdint.h>

struct linit_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

typedef struct linit_cpuid_regs linit_cpuid_fn(void *ctx, uint32_t leaf, uint32_t subleaf);

uint64_t linit_cpuid_features(linit_cpuid_fn *cpuid, void *ctx);

/* The CPUID instruction itself (unprivileged; Linux does not fault it for /init). */
struct linit_cpuid_regs linit_cpuid_insn(void *ctx, uint32_t leaf, uint32_t subleaf);

#endif
