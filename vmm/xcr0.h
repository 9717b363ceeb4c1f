/*
 * The vCPU's XCR0 before its first KVM_RUN: the one our guest kernel will
 * set (include/entrylab/xcr0.h), loaded with KVM_SET_XCRS.
 *
 * Why: KVM keeps its own copy of the guest's XCR0, learnt from the XSETBV
 * intercept, and loads it on every VM entry once the guest has CR4.OSXSAVE.
 * Under QEMU before 8.2 with nested SVM (our nested runner: QEMU 7.2 TCG),
 * the intercept is never checked: the guest's XSETBV changes the CPU's XCR0
 * without a VM exit, KVM's copy stays at its reset value 1 (x87 only) and
 * the next VM entry puts 1 back.  Given the guest's choice first, KVM puts
 * back the same value.  On hardware, where XSETBV exits, the guest's own
 * XSETBV replaces it and nothing changes.  Not for `--guest linux`: with
 * Linux 6.1's XCR0 (0x207 in the runner) preset, Linux hung before /init
 * there (docs/architecture.md, "XSAVE in the nested runner").
 */
#ifndef EL_VMM_XCR0_H
#define EL_VMM_XCR0_H

#include <stddef.h>
#include <stdint.h>

#include "cpuid.h"

/* The XCR0 our kernel will set on a vCPU with this CPUID; 0: it will not use XSAVE. */
uint64_t xcr0_guest_choice(const struct el_cpuid *vcpu);
/*
 * KVM_SET_XCRS(XCR0 = xcr0) where KVM has the capability and xcr0 != 0.
 * 0, or -1 with the reason in err.
 */
int xcr0_preset(int kvm_fd, int vcpu_fd, uint64_t xcr0, char *err, size_t errlen);

#endif
