/*
 * The three CPUID ioctls: what KVM supports, what a vCPU is given, and
 * what the vCPU kept.  struct el_cpuid_entry is kvm_cpuid_entry2 by layout,
 * so entries are copied as they are; only the header differs.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuid.h"
#include "kvm.h"

#define SAME_FIELD(f)                                                                      \
	_Static_assert(offsetof(struct el_cpuid_entry, f) ==                               \
			       offsetof(struct kvm_cpuid_entry2, f),                       \
		       "el_cpuid_entry." #f " must sit where kvm_cpuid_entry2 has it")
SAME_FIELD(function);
SAME_FIELD(index);
SAME_FIELD(flags);
SAME_FIELD(eax);
SAME_FIELD(ebx);
SAME_FIELD(ecx);
SAME_FIELD(edx);
SAME_FIELD(padding);
_Static_assert(sizeof(struct el_cpuid_entry) == sizeof(struct kvm_cpuid_entry2),
	       "el_cpuid_entry must mirror kvm_cpuid_entry2");
_Static_assert(EL_CPUID_FLAG_SIGNIFICANT_INDEX == KVM_CPUID_FLAG_SIGNIFCANT_INDEX,
	       "significant-index flag");

static struct kvm_cpuid2 *kcpuid_alloc(uint32_t nent)
{
	struct kvm_cpuid2 *k = calloc(1, sizeof(*k) + nent * sizeof(k->entries[0]));

	if (!k)
		fprintf(stderr, "entrylab: out of memory for %u CPUID entries\n", nent);
	else
		k->nent = nent;
	return k;
}

static void kcpuid_to_el(const struct kvm_cpuid2 *k, struct el_cpuid *out)
{
	out->nent = k->nent;
	memcpy(out->ent, k->entries, k->nent * sizeof(out->ent[0]));
}

/*
 * Kernels that do not list the TSC-deadline bit offer it through a
 * capability, as QEMU reads it (the timer lives in the in-kernel LAPIC).
 */
static void fold_capabilities(int kvm_fd, struct el_cpuid *c)
{
	if (kvm_cap(kvm_fd, KVM_CAP_TSC_DEADLINE_TIMER) <= 0)
		return;
	for (uint32_t i = 0; i < c->nent; i++)
		if (c->ent[i].function == 1)
			c->ent[i].ecx |= el_features[EL_FEAT_TSC_DEADLINE].mask;
}

int cpuid_kvm_supported(int kvm_fd, struct el_cpuid *out)
{
	/* KVM says E2BIG until the buffer holds every entry; start small. */
	for (uint32_t nent = 32; nent <= EL_CPUID_MAX_ENTRIES; nent *= 2) {
		struct kvm_cpuid2 *k = kcpuid_alloc(nent);
		int rc, e;

		if (!k)
			return -1;
		rc = __kvm_ioctl(kvm_fd, KVM_GET_SUPPORTED_CPUID, k);
		e = errno;
		if (rc == 0) {
			kcpuid_to_el(k, out);
			free(k);
			fold_capabilities(kvm_fd, out);
			return 0;
		}
		free(k);
		if (e != E2BIG) {
			fprintf(stderr, "entrylab: KVM_GET_SUPPORTED_CPUID failed: %s (errno %d)\n",
				strerror(e), e);
			return -1;
		}
	}
	fprintf(stderr,
		"entrylab: KVM_GET_SUPPORTED_CPUID failed: more than %d entries (E2BIG); raise "
		"EL_CPUID_MAX_ENTRIES in vmm/cpuid.h\n",
		EL_CPUID_MAX_ENTRIES);
	return -1;
}

int cpuid_kvm_set(int vcpu_fd, const struct el_cpuid *c)
{
	struct kvm_cpuid2 *k;
	int rc;

	if (c->nent > EL_CPUID_MAX_ENTRIES) {
		fprintf(stderr, "entrylab: KVM_SET_CPUID2: %u entries, at most %d\n", c->nent,
			EL_CPUID_MAX_ENTRIES);
		return -1;
	}
	k = kcpuid_alloc(c->nent);
	if (!k)
		return -1;
	memcpy(k->entries, c->ent, c->nent * sizeof(c->ent[0]));
	rc = kvm_ioctl(vcpu_fd, KVM_SET_CPUID2, k);
	if (rc < 0 && errno == EINVAL)
		fprintf(stderr, "entrylab: KVM rejects this CPUID table (or the vCPU has already "
				"run: KVM forbids CPUID changes after the first KVM_RUN)\n");
	free(k);
	return rc < 0 ? -1 : 0;
}

int cpuid_kvm_get(int vcpu_fd, struct el_cpuid *out)
{
	struct kvm_cpuid2 *k = kcpuid_alloc(EL_CPUID_MAX_ENTRIES);
	int rc;

	if (!k)
		return -1;
	rc = kvm_ioctl(vcpu_fd, KVM_GET_CPUID2, k);
	if (rc == 0)
		kcpuid_to_el(k, out);
	free(k);
	return rc < 0 ? -1 : 0;
}

int cpuid_kvm_effective(int kvm_fd, const struct el_cpuid *c, struct el_cpuid *out)
{
	int vm_fd = kvm_ioctl(kvm_fd, KVM_CREATE_VM, 0);
	int vcpu_fd = vm_fd < 0 ? -1 : kvm_ioctl(vm_fd, KVM_CREATE_VCPU, 0);
	int rc = vcpu_fd < 0 || cpuid_kvm_set(vcpu_fd, c) || cpuid_kvm_get(vcpu_fd, out);

	if (vcpu_fd >= 0)
		close(vcpu_fd);
	if (vm_fd >= 0)
		close(vm_fd);
	return rc ? -1 : 0;
}

int cpuid_kvm_honoured(int kvm_fd)
{
	static struct el_cpuid sup, got; /* 20 KiB: off the caller's stack */
	const struct el_feature_desc *pge = &el_features[EL_FEAT_PGE];

	if (cpuid_kvm_supported(kvm_fd, &sup))
		return -1;
	/* PGE: in every x86-64 host's table, and KVM itself never forces it. */
	for (uint32_t i = 0; i < sup.nent; i++)
		if (sup.ent[i].function == pge->leaf)
			sup.ent[i].edx &= ~pge->mask;
	if (cpuid_kvm_effective(kvm_fd, &sup, &got))
		return -1;
	return !cpuid_has(&got, EL_FEAT_PGE);
}
