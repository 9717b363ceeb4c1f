/*
 * The vCPU's initial XCR0 (vmm/xcr0.h): the rule of our kernel's fpu.c
 * (include/entrylab/xcr0.h), on synthetic CPUID tables.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "entrylab/xcr0.h"
#include "xcr0.h"

#define SIG 1u /* EL_CPUID_FLAG_SIGNIFICANT_INDEX */
#define XSAVE (1u << 26)
#define PKU (1u << 3)

static struct el_cpuid c;

static void add(uint32_t leaf, uint32_t sub, uint32_t eax, uint32_t ecx, uint32_t edx)
{
	c.ent[c.nent++] = (struct el_cpuid_entry){.function = leaf, .index = sub, .flags = SIG,
						  .eax = eax, .ecx = ecx, .edx = edx};
}

/* The nested runner's vCPU (QEMU 7.2 TCG -cpu max, KVM 6.1): x87, SSE, AVX, PKRU. */
static void tcg_max(uint32_t leaf1_ecx)
{
	memset(&c, 0, sizeof(c));
	add(1, 0, 0, leaf1_ecx, 0);
	add(7, 0, 0, PKU, 0);
	add(0xd, 0, 0x207, 0, 0);
}

Test(xcr0, the_kernels_rule)
{
	cr_assert_eq(el_xcr0_choose(0x207), 0x7, "PKRU is not ours");
	cr_assert_eq(el_xcr0_choose(0x2e7), 0xe7, "the AVX-512 trio with AVX");
	cr_assert_eq(el_xcr0_choose(0x67), 0x7, "part of the AVX-512 trio: none of it");
	cr_assert_eq(el_xcr0_choose(0xe3), 0x3, "AVX-512 without AVX: none of it");
	cr_assert_eq(el_xcr0_choose(0x1), 0, "no SSE state: no XSAVE");
}

Test(xcr0, on_the_nested_runners_vcpu)
{
	tcg_max(XSAVE);
	cr_assert_eq(xcr0_guest_choice(&c), 0x7, "PKRU is offered, not taken");
}

Test(xcr0, none_without_xsave_or_leaf_0xd)
{
	tcg_max(0);
	cr_assert_eq(xcr0_guest_choice(&c), 0, "CPUID.1:ECX.XSAVE clear");
	tcg_max(XSAVE);
	c.nent = 2;
	cr_assert_eq(xcr0_guest_choice(&c), 0, "no leaf 0xd");
}
