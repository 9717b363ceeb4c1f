/*
 * The XCR0 our guest kernel enables (arch/x86_64/fpu.c), as one pure rule
 * the VMM applies too: vmm/xcr0.c gives the vCPU this XCR0 before its first
 * KVM_RUN (KVM_SET_XCRS), because a hypervisor that misses the guest's
 * XSETBV restores its own idea of XCR0 after every VM exit (QEMU before 8.2
 * does not check the SVM XSETBV intercept, so a KVM nested in it never sees
 * the guest's XSETBV: docs/architecture.md, "XSAVE in the nested runner").
 *
 * The rule: of what CPUID.(0xD,0) EDX:EAX supports, x87, SSE, AVX and the
 * AVX-512 trio (all three or none, and only with AVX, as XSETBV requires);
 * 0 when x87 and SSE are not both there.  PKRU (needs CR4.PKE) and AMX (a
 * permission protocol) are not enabled.  Pure: the kernel, the VMM and the
 * host unit tests include it.
 */
#ifndef EL_XCR0_H
#define EL_XCR0_H

#include <stdint.h>

#define EL_XFEATURE_X87 (1ull << 0)
#define EL_XFEATURE_SSE (1ull << 1)
#define EL_XFEATURE_YMM (1ull << 2)
#define EL_XFEATURES_AVX512 (7ull << 5) /* opmask, ZMM_Hi256, Hi16_ZMM */

static inline uint64_t el_xcr0_choose(uint64_t supported)
{
	uint64_t x = supported & (EL_XFEATURE_X87 | EL_XFEATURE_SSE | EL_XFEATURE_YMM |
				  EL_XFEATURES_AVX512);

	if (!(x & EL_XFEATURE_YMM) || (x & EL_XFEATURES_AVX512) != EL_XFEATURES_AVX512)
		x &= ~EL_XFEATURES_AVX512;
	return (x & (EL_XFEATURE_X87 | EL_XFEATURE_SSE)) == (EL_XFEATURE_X87 | EL_XFEATURE_SSE)
		       ? x
		       : 0;
}

#endif
