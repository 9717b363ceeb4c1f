/*
 * CPU feature policy: `--cpu SPEC` (QEMU syntax) applied to the CPUID that
 * KVM supports, and the per-feature table of `entrylab cpuid`.
 *
 * Pure code: no ioctls here, so it is unit-tested on hosts without KVM.
 * The caller fetches KVM_GET_SUPPORTED_CPUID, calls cpuid_apply(), hands
 * the result to KVM_SET_CPUID2 and reads it back with KVM_GET_CPUID2.
 */
#ifndef EL_CPUID_H
#define EL_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "entrylab/features.h"

#define EL_CPUID_MAX_ENTRIES 256
/* kvm_cpuid_entry2.flags: the subleaf (index) selects the entry. */
#define EL_CPUID_FLAG_SIGNIFICANT_INDEX 1u

/* Same layout as struct kvm_cpuid_entry2, without needing <linux/kvm.h>. */
struct el_cpuid_entry {
	uint32_t function, index, flags;
	uint32_t eax, ebx, ecx, edx;
	uint32_t padding[3];
};

struct el_cpuid {
	uint32_t nent;
	struct el_cpuid_entry ent[EL_CPUID_MAX_ENTRIES];
};

enum el_feat_req { EL_REQ_DEFAULT = 0, EL_REQ_ON, EL_REQ_OFF };

struct el_cpu_request {
	enum el_feat_req feat[EL_FEAT_COUNT];
	char spec[256]; /* the spec as given, for the record */
};

/*
 * Parses "host[,+feat|,-feat|,feat=on|off]...".  On error returns -1 and
 * writes a message naming the problem and the fix into err.
 * NULL means no --cpu ("host").  A bare "feat" means feat=on and "enforce"
 * is accepted (entrylab always enforces), as in QEMU.  A feature named
 * twice: the last toggle wins, as in QEMU, so specs can be composed
 * ("host,-pge" + ",+pge").
 */
int cpuid_spec_parse(const char *spec, struct el_cpu_request *req, char *err, size_t errlen);

/*
 * out = supported with req applied.  +feat that supported lacks is refused
 * (-1, message names the feature, its CPUID leaf/register/bit, and the fix,
 * e.g. "+pcid: this host's KVM does not offer PCID (CPUID.01H:ECX[17]);
 * drop it or use -pcid").  -feat clears the bit; a few also clear what KVM
 * would otherwise derive the feature from: -arch-perfmon zeroes leaf 0AH
 * (KVM: PMU version 0 = no PMU), -perfctr-core zeroes leaf 80000022H
 * (PerfMonV2 builds on the core counters), -kvmclock also clears the old
 * kvmclock bit.  VMM policy on bits no named feature covers:
 * CPUID.01H:ECX[31] (hypervisor) set, APIC ids 0 (one vCPU);
 * family/model/stepping stay the host's.
 */
int cpuid_apply(const struct el_cpuid *supported, const struct el_cpu_request *req,
		struct el_cpuid *out, char *err, size_t errlen);

const struct el_cpuid_entry *cpuid_find(const struct el_cpuid *c, uint32_t leaf, uint32_t subleaf);
bool cpuid_has(const struct el_cpuid *c, enum el_feature f);
/* "CPUID.01H:ECX[17]" style location of a feature. */
void cpuid_feature_where(enum el_feature f, char *buf, size_t len);
/* Feature index by name (QEMU spelling, also accepts '_' for '-'), or -1. */
int cpuid_feature_lookup(const char *name, size_t len);
/*
 * What happens when the guest uses f without its CPUID bit, for people:
 * "kvm: CR4.PCIDE #GP", "kvm: INVPCID #UD", "guest only" (KVM lets it work).
 */
void cpuid_feature_enforcement(enum el_feature f, char *buf, size_t len);
/* "default", "on", "off". */
const char *cpuid_req_name(enum el_feat_req r);
/*
 * After KVM_SET_CPUID2: -1 when KVM did not keep a feature the request
 * names (applied vs effective = KVM_GET_CPUID2), with a message naming the
 * feature and the fix.  Some KVMs (seen with kvm_pvm) ignore
 * KVM_SET_CPUID2 and give the guest the host's CPUID.
 */
int cpuid_check_kept(const struct el_cpu_request *req, const struct el_cpuid *applied,
		     const struct el_cpuid *effective, char *err, size_t errlen);

/* ---- KVM side (vmm/cpuid_kvm.c): thin, checked ioctl users ------------- */

/* KVM_GET_SUPPORTED_CPUID on the /dev/kvm fd (retries on E2BIG). 0 or -1 (message printed). */
int cpuid_kvm_supported(int kvm_fd, struct el_cpuid *out);
/* KVM_SET_CPUID2 / KVM_GET_CPUID2 on a vCPU fd. 0 or -1 (message printed). */
int cpuid_kvm_set(int vcpu_fd, const struct el_cpuid *c);
int cpuid_kvm_get(int vcpu_fd, struct el_cpuid *out);
/*
 * A throwaway VM and vCPU that never run: KVM_SET_CPUID2 with c, then
 * KVM_GET_CPUID2 into out (what a guest would see).  0 or -1 (printed).
 */
int cpuid_kvm_effective(int kvm_fd, const struct el_cpuid *c, struct el_cpuid *out);
/*
 * Whether this KVM keeps the CPUID it is given: 1 yes, 0 no (it ignores
 * KVM_SET_CPUID2; --cpu toggles cannot work natively, use the nested
 * runner), -1 on error (printed).  Costs one throwaway VM.
 */
int cpuid_kvm_honoured(int kvm_fd);
#endif
