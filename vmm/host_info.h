/*
 * Facts about the host that go into every record ("host" object): what CPU
 * ran the guest, which kernel and KVM, and which PMU KVM can give a guest.
 */
#ifndef EL_HOST_INFO_H
#define EL_HOST_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuid.h"

#define EL_HOST_MAX_PARAMS 16


/* One KVM module parameter, e.g. {"kvm_amd.npt", "1"}. */
struct el_host_param {
	char name[48];
	char value[32];
};

struct el_host_info {
	char cpu_model[49];  /* brand string from the CPUID instruction, trimmed */
	char vendor[13];     /* "GenuineIntel", "AuthenticAMD", ... */
	unsigned family, model, stepping; /* decoded with the extended fields */
	char kernel[65];     /* uname release */
	const char *kvm;     /* "native" | "nested" (inside the nested runner's VM) */
	const char *kvm_module; /* vendor module loaded: "kvm_intel", "kvm_amd", ... or "" */
	const char *pmu;     /* "intel-v1" | "intel-v2" | "amd-core" | "amd-v2" | "none" */
	unsigned nr_params;
	struct el_host_param params[EL_HOST_MAX_PARAMS]; /* only the ones present */
};

/*
 * Fills *hi from the CPUID instruction, uname and /sys/module; the PMU kind
 * from supported (KVM_GET_SUPPORTED_CPUID; NULL = "none").  hi->kvm is set
 * to "native": the caller overwrites it inside the nested runner.  Returns 0.
 */
int host_info_get(struct el_host_info *hi, const struct el_cpuid *supported);

/*
 * host_info_get() with the supported CPUID fetched from /dev/kvm (quietly:
 * pmu "none" when KVM is not usable) and kvm = nested ? "nested" : "native".
 */
void host_info_collect(struct el_host_info *hi, bool nested);

/*
 * Which PMU KVM offers a guest, from its supported CPUID alone: Intel by the
 * architectural PMU version (leaf 0AH), AMD by PerfMonV2 (80000022H:EAX[0])
 * or the core counters (80000001H:ECX[23]).  Pure.
 */
const char *host_pmu_kind(const struct el_cpuid *supported);

/*
 * The KVM modules loaded here (/sys/module: kvm, kvm_intel, kvm_amd,
 * kvm_pvm), space-separated into out; "" when none is.
 */
void host_kvm_modules(char *out, size_t cap);

/* Family/model/stepping from CPUID.01H:EAX, extended fields included.  Pure. */
void host_decode_signature(uint32_t eax, unsigned *family, unsigned *model, unsigned *stepping);


#endif
