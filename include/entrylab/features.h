/*
 * CPU feature table shared by the VMM and the guest (see features.def).
 */
#ifndef ENTRYLAB_FEATURES_H
#define ENTRYLAB_FEATURES_H

#include <stdint.h>

enum el_reg { EL_REG_EAX, EL_REG_EBX, EL_REG_ECX, EL_REG_EDX };

/* What happens when the guest uses a feature its CPUID does not offer. */
enum el_enforcement {
	EL_ENF_CR4,   /* KVM: the CR4 enable bit is reserved, setting it #GPs */
	EL_ENF_EFER,  /* KVM: the EFER enable bit is reserved, setting it #GPs */
	EL_ENF_UD,    /* KVM: the instruction raises #UD */
	EL_ENF_MSR,   /* KVM: the feature's MSRs #GP */
	EL_ENF_GUEST, /* KVM lets it work: only the guest honours CPUID */
};

enum el_feature {
#define EL_FEATURE(id, name, leaf, subleaf, reg, mask, enf) EL_FEAT_##id,
#include "features.def"
#undef EL_FEATURE
	EL_FEAT_COUNT
};

struct el_feature_desc {
	const char *name;
	uint32_t leaf, subleaf;
	enum el_reg reg;
	uint32_t mask;
	enum el_enforcement enforcement;
};

/* One row per features.def line, indexed by enum el_feature (common/abi_tables.c). */
extern const struct el_feature_desc el_features[EL_FEAT_COUNT];

_Static_assert(EL_FEAT_COUNT <= 64, "el_report.cpuid holds 64 features");

#endif
