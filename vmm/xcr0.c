/*
 * The vCPU's initial XCR0 (xcr0.h): our kernel's rule applied to the
 * vCPU's CPUID, and the ioctl that loads it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/xcr0.h"
#include "kvm.h"
#include "xcr0.h"

#define CPUID1_ECX_XSAVE (1u << 26)

uint64_t xcr0_guest_choice(const struct el_cpuid *vcpu)
{
	const struct el_cpuid_entry *l1 = cpuid_find(vcpu, 1, 0), *xs = cpuid_find(vcpu, 0xd, 0);

	/* cpu_setup.c sets CR4.OSXSAVE only where CPUID.1:ECX offers XSAVE. */
	if (!l1 || !(l1->ecx & CPUID1_ECX_XSAVE) || !xs)
		return 0;
	return el_xcr0_choose(xs->eax | (uint64_t)xs->edx << 32);
}

int xcr0_preset(int kvm_fd, int vcpu_fd, uint64_t xcr0, char *err, size_t errlen)
{
	struct kvm_xcrs x;

	if (!xcr0 || kvm_cap(kvm_fd, KVM_CAP_XCRS) <= 0)
		return 0;
	memset(&x, 0, sizeof(x));
	x.nr_xcrs = 1;
	x.xcrs[0].xcr = 0;
	x.xcrs[0].value = xcr0;
	if (__kvm_ioctl(vcpu_fd, KVM_SET_XCRS, &x) < 0) {
		snprintf(err, errlen, "KVM_SET_XCRS(XCR0=%#llx) failed: %s (errno %d); KVM refuses "
			 "the XCR0 the guest kernel would set on this CPUID",
			 (unsigned long long)xcr0, strerror(errno), errno);
		return -1;
	}
	return 0;
}
