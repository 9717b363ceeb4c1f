/*
 * PMU model-specific registers and their bits (Intel SDM vol. 3 ch. 20,
 * AMD APM vol. 2 ch. 13).  Numbers only: the pure planning code and the
 * driver both use them.
 */
#ifndef EL_PMU_MSR_H
#define EL_PMU_MSR_H

/* Intel architectural PMU */
#define MSR_IA32_PMC0 0xc1u                  /* GP counter i at +i */
#define MSR_IA32_PERFEVTSEL0 0x186u          /* GP event select i at +i */
#define MSR_IA32_FIXED_CTR0 0x309u           /* fixed counter j at +j */
#define MSR_IA32_FIXED_CTR_CTRL 0x38du       /* 4 bits per fixed counter */
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38eu
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38fu     /* GP i at bit i, fixed j at bit 32 + j */
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390u

#define FIXED_CTRL_OS 0x1ull  /* per-counter nibble: count at CPL 0 */
#define FIXED_CTRL_USR 0x2ull /* count at CPL > 0 */
#define GLOBAL_FIXED_SHIFT 32

/* AMD */
#define MSR_K7_EVNTSEL0 0xc0010000u  /* legacy: 4 event selects */
#define MSR_K7_PERFCTR0 0xc0010004u  /* legacy: 4 counters */
#define MSR_F15H_PERF_CTL0 0xc0010200u /* core: CTL i at +2i, CTR i at +2i+1 */
#define MSR_F15H_PERF_CTR0 0xc0010201u
#define MSR_AMD_PERF_GLOBAL_STATUS 0xc0000300u
#define MSR_AMD_PERF_GLOBAL_CTL 0xc0000301u  /* PerfMonV2: core counter i at bit i */
#define MSR_AMD_PERF_GLOBAL_STATUS_CLR 0xc0000302u

/* Event-select bits the kernel owns (never part of a CFG from the VMM). */
#define EVTSEL_INT (1ull << 20)
#define EVTSEL_EN (1ull << 22)

#endif
