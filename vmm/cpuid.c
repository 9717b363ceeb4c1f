/*
 * CPU feature policy: the user's --cpu request applied to what KVM
 * supports, plus the few bits a one-vCPU VMM must set itself.  Pure.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "cpuid.h"
#include "entrylab/exceptions.h"

static const size_t reg_offset[] = {
	[EL_REG_EAX] = offsetof(struct el_cpuid_entry, eax),
	[EL_REG_EBX] = offsetof(struct el_cpuid_entry, ebx),
	[EL_REG_ECX] = offsetof(struct el_cpuid_entry, ecx),
	[EL_REG_EDX] = offsetof(struct el_cpuid_entry, edx),
};

static const char *const reg_name[] = {"EAX", "EBX", "ECX", "EDX"};

static uint32_t *reg_ptr(struct el_cpuid_entry *e, enum el_reg r)
{
	return (uint32_t *)((char *)e + reg_offset[r]);
}

static uint32_t reg_get(const struct el_cpuid_entry *e, enum el_reg r)
{
	return *(const uint32_t *)((const char *)e + reg_offset[r]);
}

const struct el_cpuid_entry *cpuid_find(const struct el_cpuid *c, uint32_t leaf, uint32_t subleaf)
{
	uint32_t n = c->nent < EL_CPUID_MAX_ENTRIES ? c->nent : EL_CPUID_MAX_ENTRIES;

	for (uint32_t i = 0; i < n; i++) {
		const struct el_cpuid_entry *e = &c->ent[i];

		if (e->function != leaf)
			continue;
		/* As KVM looks entries up: the subleaf counts only where flagged. */
		if (!(e->flags & EL_CPUID_FLAG_SIGNIFICANT_INDEX) || e->index == subleaf)
			return e;
	}
	return NULL;
}

static struct el_cpuid_entry *find_mut(struct el_cpuid *c, uint32_t leaf, uint32_t subleaf)
{
	return (struct el_cpuid_entry *)cpuid_find(c, leaf, subleaf);
}

bool cpuid_has(const struct el_cpuid *c, enum el_feature f)
{
	const struct el_feature_desc *d = &el_features[f];
	const struct el_cpuid_entry *e = cpuid_find(c, d->leaf, d->subleaf);

	return e && (reg_get(e, d->reg) & d->mask);
}

void cpuid_feature_where(enum el_feature f, char *buf, size_t len)
{
	const struct el_feature_desc *d = &el_features[f];
	int lo = __builtin_ctz(d->mask), hi = 31 - __builtin_clz(d->mask);
	char bits[16], sub[16] = "";

	if (lo == hi)
		snprintf(bits, sizeof(bits), "[%d]", lo);
	else
		snprintf(bits, sizeof(bits), "[%d:%d]", hi, lo);
	if (d->subleaf)
		snprintf(sub, sizeof(sub), ".%u", d->subleaf);
	snprintf(buf, len, "CPUID.%02XH%s:%s%s", d->leaf, sub, reg_name[d->reg], bits);
}

/*
 * What KVM checks, per feature (arch/x86/kvm: CR4 and EFER reserved bits
 * derive from guest CPUID, so do the PMU and feature MSRs).  The enum in
 * features.def says how; this says what, in the words of the SDM.
 */
static const char *const enforced_what[EL_FEAT_COUNT] = {
	[EL_FEAT_PCID] = "CR4.PCIDE",
	[EL_FEAT_INVPCID] = "INVPCID",
	[EL_FEAT_SMEP] = "CR4.SMEP",
	[EL_FEAT_SMAP] = "CR4.SMAP",
	[EL_FEAT_UMIP] = "CR4.UMIP",
	[EL_FEAT_FSGSBASE] = "CR4.FSGSBASE",
	[EL_FEAT_NX] = "EFER.NXE",
	[EL_FEAT_LA57] = "CR4.LA57",
	[EL_FEAT_PKU] = "CR4.PKE",
	[EL_FEAT_X2APIC] = "APIC_BASE.EXTD",
	[EL_FEAT_PDCM] = "PERF_CAPABILITIES",
	[EL_FEAT_ARCH_PERFMON] = "PMU MSRs",
};

/* Where KVM's reaction is not the enum's fault: said in full. */
static const char *const enforced_full[EL_FEAT_COUNT] = {
	/* The LVT timer mode mask follows CPUID; the deadline MSR write is ignored. */
	[EL_FEAT_TSC_DEADLINE] = "kvm: LVT TSC-deadline mode masked",
	/* Checked only when the VMM enables KVM_CAP_ENFORCE_PV_FEATURE_CPUID. */
	[EL_FEAT_KVMCLOCK] = "kvm: kvmclock MSRs #GP (ENFORCE_PV_FEATURE_CPUID)",
};

/* The exception KVM raises for each kind of enforcement (vectors of exceptions.def). */
static const unsigned char enforcement_fault[] = {
	[EL_ENF_CR4] = 13, [EL_ENF_EFER] = 13, [EL_ENF_UD] = 6, [EL_ENF_MSR] = 13,
};

void cpuid_feature_enforcement(enum el_feature f, char *buf, size_t len)
{
	enum el_enforcement how = el_features[f].enforcement;

	if (how == EL_ENF_GUEST)
		snprintf(buf, len, "guest only");
	else if (enforced_full[f])
		snprintf(buf, len, "%s", enforced_full[f]);
	else
		snprintf(buf, len, "kvm: %s %s", enforced_what[f] ? enforced_what[f] : "use",
			 el_exception_mnemonic(enforcement_fault[how]));
}

/*
 * What -feat clears besides the feature's own bits: KVM derives these
 * features from other fields, so clearing only the named bit would leave
 * the guest the feature (mask per register; all ones = the whole leaf).
 */
static const struct {
	enum el_feature f;
	uint32_t leaf, subleaf;
	uint32_t mask[4];
} also_clear[] = {
	/* KVM: PMU version 0 = no PMU; counter counts alone would not say so. */
	{EL_FEAT_ARCH_PERFMON, 0x0a, 0, {~0u, ~0u, ~0u, ~0u}},
	/* PerfMonV2 (80000022H) gives AMD counters without PERFCTR_CORE. */
	{EL_FEAT_PERFCTR_CORE, 0x80000022, 0, {~0u, ~0u, ~0u, ~0u}},
	/* KVM_FEATURE_CLOCKSOURCE (old MSRs) and its stable bit. */
	{EL_FEAT_KVMCLOCK, 0x40000001, 0, {(1u << 0) | (1u << 24), 0, 0, 0}},
};

static void feature_clear(struct el_cpuid *c, enum el_feature f)
{
	const struct el_feature_desc *d = &el_features[f];
	struct el_cpuid_entry *e = find_mut(c, d->leaf, d->subleaf);

	if (e)
		*reg_ptr(e, d->reg) &= ~d->mask;
	for (size_t i = 0; i < EL_ARRAY_SIZE(also_clear); i++) {
		if (also_clear[i].f != f)
			continue;
		e = find_mut(c, also_clear[i].leaf, also_clear[i].subleaf);
		for (int r = EL_REG_EAX; e && r <= EL_REG_EDX; r++)
			*reg_ptr(e, (enum el_reg)r) &= ~also_clear[i].mask[r];
	}
}

/* One vCPU with APIC id 0; say we are a hypervisor.  No named feature here. */
static void vmm_policy(struct el_cpuid *c)
{
	for (uint32_t i = 0; i < c->nent; i++) {
		struct el_cpuid_entry *e = &c->ent[i];

		if (e->function == 0x1) {
			e->ecx |= 1u << 31;     /* hypervisor present */
			e->ebx &= 0x00ffffffu;  /* initial APIC id */
		} else if (e->function == 0xb || e->function == 0x1f) {
			e->edx = 0;             /* x2APIC id */
		} else if (e->function == 0x8000001e) {
			e->eax = 0;             /* extended APIC id */
		}
	}
}

static void upper(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i];
	buf[i] = 0;
}

int cpuid_apply(const struct el_cpuid *supported, const struct el_cpu_request *req,
		struct el_cpuid *out, char *err, size_t errlen)
{
	if (supported->nent > EL_CPUID_MAX_ENTRIES) {
		snprintf(err, errlen, "supported CPUID has %u entries, at most %d fit",
			 supported->nent, EL_CPUID_MAX_ENTRIES);
		return -1;
	}
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		char where[32], name[32];

		if (req->feat[f] != EL_REQ_ON || cpuid_has(supported, f))
			continue;
		cpuid_feature_where(f, where, sizeof(where));
		upper(el_features[f].name, name, sizeof(name));
		snprintf(err, errlen,
			 "+%s: this host's KVM does not offer %s (%s); drop it or use -%s",
			 el_features[f].name, name, where, el_features[f].name);
		return -1;
	}
	memcpy(out, supported, sizeof(*out));
	for (int f = 0; f < EL_FEAT_COUNT; f++)
		if (req->feat[f] == EL_REQ_OFF)
			feature_clear(out, f);
	vmm_policy(out);
	return 0;
}

int cpuid_check_kept(const struct el_cpu_request *req, const struct el_cpuid *applied,
		     const struct el_cpuid *effective, char *err, size_t errlen)
{
	for (int f = 0; f < EL_FEAT_COUNT; f++) {
		bool want = cpuid_has(applied, f), got = cpuid_has(effective, f);
		char where[32];

		if (req->feat[f] == EL_REQ_DEFAULT || want == got)
			continue;
		cpuid_feature_where(f, where, sizeof(where));
		snprintf(err, errlen,
			 "%c%s: this host's KVM gives the guest %s %s (%s) anyway: it does not "
			 "keep the CPUID that KVM_SET_CPUID2 sets, so --cpu toggles cannot work "
			 "here; use --nested",
			 want ? '+' : '-', el_features[f].name, el_features[f].name,
			 got ? "on" : "off", where);
		return -1;
	}
	return 0;
}
