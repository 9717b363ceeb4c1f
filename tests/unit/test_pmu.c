/*
 * The guest PMU driver's decisions (guest-kernel/pmu/pmu_caps.c,
 * pmu_plan.c) on simulated CPUs: CPUID words -> PMU kind and counters,
 * probe results -> what stays usable, events -> counter assignment and the
 * exact MSR writes around a region, raw readings -> counter status.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "guest-kernel/pmu/pmu_caps.h"
#include "guest-kernel/pmu/pmu_msr.h"
#include "guest-kernel/pmu/pmu_plan.h"

#define U EL_EVSEL_USR
#define K EL_EVSEL_OS
#define UK (EL_EVSEL_USR | EL_EVSEL_OS)
#define EN EVTSEL_EN

/* CPUID 0AH EAX/EDX as KVM builds them. */
static struct pmu_cpuid intel(unsigned version, unsigned gp, unsigned ebx_len, uint32_t ebx,
			      unsigned fixed)
{
	return (struct pmu_cpuid){
		.vendor = PMU_VENDOR_INTEL, .family = 6, .max_leaf = 0x1f,
		.max_ext_leaf = 0x80000008,
		.l0a_eax = version | gp << 8 | 48u << 16 | ebx_len << 24, .l0a_ebx = ebx,
		.l0a_edx = fixed | 48u << 5};
}

static struct pmu_cpuid amd(unsigned family, bool core, unsigned v2_counters)
{
	return (struct pmu_cpuid){
		.vendor = PMU_VENDOR_AMD, .family = family, .max_leaf = 0x10,
		.max_ext_leaf = v2_counters ? 0x80000022 : 0x80000021,
		.e1_ecx = core ? 1u << 23 : 0, .e22_eax = v2_counters ? 1 : 0,
		.e22_ebx = v2_counters};
}

static const struct pmu_probe all_ok = {~0u, ~0u, true, true};

static struct pmu_caps caps_of(struct pmu_cpuid c, const struct pmu_probe *p)
{
	struct pmu_caps caps;

	pmu_caps_decode(&c, &caps);
	if (p)
		pmu_caps_probed(&caps, p);
	return caps;
}

static void expect_op(const struct pmu_op *o, uint32_t msr, uint64_t val, const char *what)
{
	cr_expect_eq(o->msr, msr, "%s: msr 0x%x, want 0x%x", what, o->msr, msr);
	cr_expect_eq(o->val, val, "%s: value 0x%llx, want 0x%llx", what,
		     (unsigned long long)o->val, (unsigned long long)val);
}

static void expect_slot(const struct pmu_plan *p, unsigned k, enum pmu_slot_state st,
			unsigned index)
{
	cr_expect_eq(p->slot[k].state, st, "slot %u: state %u, want %u", k, p->slot[k].state, st);
	if (st == PMU_SLOT_GP || st == PMU_SLOT_FIXED)
		cr_expect_eq(p->slot[k].index, index, "slot %u: counter %u, want %u", k,
			     p->slot[k].index, index);
}

Test(pmu_caps, intel_v2_with_fixed_counters)
{
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &all_ok);

	cr_expect_eq(c.info.kind, EL_PMU_INTEL_V2);
	cr_expect_eq(c.info.version, 2);
	cr_expect_eq(c.info.nr_gp, 8);
	cr_expect_eq(c.info.gp_width, 48);
	cr_expect_eq(c.info.nr_fixed, 3);
	cr_expect_eq(c.info.fixed_usable, 0x7);
	cr_expect_eq(c.info.gp_usable, 0xff);
	cr_expect_eq(c.global_ctrl, MSR_IA32_PERF_GLOBAL_CTRL);
	cr_expect_eq(c.arch_unavail, 0x80, "topdown slots (bit 7) lies past the 7-bit vector");
	cr_expect_eq(pmu_gp_evtsel(&c, 3), 0x189);
	cr_expect_eq(pmu_gp_ctr(&c, 3), 0xc4);
}

Test(pmu_caps, intel_v1_has_no_fixed_counters_nor_global_control)
{
	struct pmu_caps c = caps_of(intel(1, 2, 7, 0, 3), &all_ok);

	cr_expect_eq(c.info.kind, EL_PMU_INTEL_V1);
	cr_expect_eq(c.info.nr_fixed, 0, "EDX is only valid from version 2");
	cr_expect_eq(c.info.fixed_usable, 0);
	cr_expect_eq(c.global_ctrl, 0);
}

Test(pmu_caps, intel_v5_fixed_counter_bitmap)
{
	struct pmu_cpuid id = intel(5, 8, 8, 0, 0);
	struct pmu_caps c;

	id.l0a_ecx = 0x5; /* fixed counters 0 and 2, but not 1 */
	c = caps_of(id, &all_ok);
	cr_expect_eq(c.info.fixed_usable, 0x5);
}

Test(pmu_caps, intel_version_0_or_no_leaf_is_no_pmu)
{
	struct pmu_cpuid id = intel(0, 8, 7, 0, 3);

	cr_expect_eq(caps_of(id, NULL).info.kind, EL_PMU_NONE);
	id = intel(2, 8, 7, 0, 3);
	id.max_leaf = 0x7; /* leaf 0AH beyond the maximum: its words are not believed */
	cr_expect_eq(caps_of(id, NULL).info.kind, EL_PMU_NONE);
}

Test(pmu_caps, amd_core_v2_and_legacy)
{
	struct pmu_caps core = caps_of(amd(0x19, true, 0), &all_ok);
	struct pmu_caps v2 = caps_of(amd(0x19, true, 6), &all_ok);
	struct pmu_caps legacy = caps_of(amd(0x10, false, 0), &all_ok);

	cr_expect_eq(core.info.kind, EL_PMU_AMD_CORE);
	cr_expect_eq(core.info.nr_gp, 6);
	cr_expect_eq(core.global_ctrl, 0);
	cr_expect_eq(pmu_gp_evtsel(&core, 2), 0xc0010204);
	cr_expect_eq(pmu_gp_ctr(&core, 2), 0xc0010205);
	cr_expect_eq(v2.info.kind, EL_PMU_AMD_V2);
	cr_expect_eq(v2.info.version, 2);
	cr_expect_eq(v2.global_ctrl, MSR_AMD_PERF_GLOBAL_CTL);
	cr_expect_eq(legacy.info.kind, EL_PMU_AMD_LEGACY);
	cr_expect_eq(legacy.info.nr_gp, 4);
	cr_expect_eq(pmu_gp_evtsel(&legacy, 3), 0xc0010003);
	cr_expect_eq(pmu_gp_ctr(&legacy, 3), 0xc0010007);
	cr_expect_eq(legacy.info.gp_width, 48);
}

Test(pmu_caps, other_vendor_is_no_pmu)
{
	struct pmu_cpuid id = intel(2, 8, 7, 0, 3);

	id.vendor = PMU_VENDOR_OTHER;
	cr_expect_eq(caps_of(id, NULL).info.kind, EL_PMU_NONE);
}

Test(pmu_caps, probe_amd_legacy_that_reads_zeros_is_no_pmu)
{
	/* KVM without a vPMU: K7 MSRs accept writes and read 0, so no counter keeps a value. */
	struct pmu_probe p = {.gp_ok = 0, .global_ok = false};

	cr_expect_eq(caps_of(amd(0x19, false, 0), &p).info.kind, EL_PMU_NONE);
}

Test(pmu_caps, probe_without_global_control_downgrades)
{
	struct pmu_probe p = {.gp_ok = ~0u, .fixed_ok = ~0u, .fixed_ctrl_ok = true,
			      .global_ok = false};
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &p);

	cr_expect_eq(c.info.kind, EL_PMU_INTEL_V1);
	cr_expect_eq(c.info.fixed_usable, 0, "fixed counters need GLOBAL_CTRL");
	cr_expect_eq(c.global_ctrl, 0);
	c = caps_of(amd(0x19, true, 6), &p);
	cr_expect_eq(c.info.kind, EL_PMU_AMD_CORE);
}

Test(pmu_caps, probe_keeps_only_working_counters)
{
	struct pmu_probe p = {.gp_ok = 0x5, .fixed_ok = 0x2, .fixed_ctrl_ok = true,
			      .global_ok = true};
	struct pmu_caps c = caps_of(intel(2, 4, 7, 0, 3), &p);

	cr_expect_eq(c.info.gp_usable, 0x5);
	cr_expect_eq(c.info.fixed_usable, 0x2);
}

Test(pmu_plan, intel_v2_fixed_then_gp_one_global_write)
{
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &all_ok);
	const uint64_t ev[] = {0x00c0 | K, 0x003c | UK, 0x00c4 | U, 0x00c0 | U};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 4, &p);
	expect_slot(&p, 0, PMU_SLOT_FIXED, 0);
	expect_slot(&p, 1, PMU_SLOT_FIXED, 1);
	expect_slot(&p, 2, PMU_SLOT_GP, 0);
	expect_slot(&p, 3, PMU_SLOT_GP, 1); /* fixed counter 0 is taken */
	cr_expect_eq(p.slot[0].ctr_msr, 0x309);
	cr_expect_eq(p.slot[1].ctr_msr, 0x30a);
	cr_expect_eq(p.slot[3].ctr_msr, 0xc2);

	cr_assert_eq(p.nr_setup, 8);
	expect_op(&p.setup[0], MSR_IA32_PERF_GLOBAL_CTRL, 0, "everything off first");
	expect_op(&p.setup[1], MSR_IA32_FIXED_CTR_CTRL, 0x1 | 0x3 << 4, "fixed: 0 OS, 1 OS+USR");
	expect_op(&p.setup[2], 0x186, 0x00c4 | U | EN, "evtsel 0 armed");
	expect_op(&p.setup[3], 0x187, 0x00c0 | U | EN, "evtsel 1 armed");
	expect_op(&p.setup[4], 0x309, 0, "zero fixed 0");
	expect_op(&p.setup[5], 0x30a, 0, "zero fixed 1");
	expect_op(&p.setup[6], 0xc1, 0, "zero pmc 0");
	expect_op(&p.setup[7], 0xc2, 0, "zero pmc 1");
	cr_assert_eq(p.nr_start, 1, "one WRMSR starts everything");
	expect_op(&p.start[0], MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 32 | 1ull << 33 | 0x3, "start");
	cr_assert_eq(p.nr_stop, 1, "one WRMSR stops everything");
	expect_op(&p.stop[0], MSR_IA32_PERF_GLOBAL_CTRL, 0, "stop");
}

Test(pmu_plan, intel_v1_enables_counter_by_counter_in_the_same_order)
{
	struct pmu_caps c = caps_of(intel(1, 2, 7, 0, 0), &all_ok);
	const uint64_t ev[] = {0x00c0 | UK, 0x003c | K, 0x00c5 | U};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 3, &p);
	expect_slot(&p, 0, PMU_SLOT_GP, 0);
	expect_slot(&p, 1, PMU_SLOT_GP, 1);
	expect_slot(&p, 2, PMU_SLOT_NO_COUNTER, 0);
	cr_assert_eq(p.nr_setup, 4);
	expect_op(&p.setup[0], 0x186, 0x00c0 | UK, "programmed, not enabled");
	expect_op(&p.setup[1], 0x187, 0x003c | K, "programmed, not enabled");
	expect_op(&p.setup[2], 0xc1, 0, "zeroed");
	cr_assert_eq(p.nr_start, 2);
	expect_op(&p.start[0], 0x186, 0x00c0 | UK | EN, "start 0");
	expect_op(&p.start[1], 0x187, 0x003c | K | EN, "start 1");
	cr_assert_eq(p.nr_stop, 2);
	expect_op(&p.stop[0], 0x186, 0x00c0 | UK, "stop 0 first");
	expect_op(&p.stop[1], 0x187, 0x003c | K, "stop 1 second");
}

Test(pmu_plan, amd_core_never_sets_host_guest_bits)
{
	struct pmu_caps c = caps_of(amd(0x19, true, 0), &all_ok);
	const uint64_t ev[] = {0x0076 | U, 0x00c0 | K, 0x100000120ull | UK};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 3, &p);
	for (unsigned k = 0; k < 3; k++)
		expect_slot(&p, k, PMU_SLOT_GP, k);
	expect_op(&p.setup[0], 0xc0010200, 0x0076 | U, "ctl 0");
	expect_op(&p.setup[2], 0xc0010204, 0x100000120ull | UK, "ctl 2, extended event");
	cr_expect_eq(p.slot[1].ctr_msr, 0xc0010203);
	expect_op(&p.start[1], 0xc0010202, 0x00c0 | K | EN, "start 1");
	for (unsigned i = 0; i < p.nr_setup; i++)
		cr_expect_eq(p.setup[i].val & (3ull << 40), 0, "Host/Guest-only bits at op %u", i);
	for (unsigned i = 0; i < p.nr_start; i++)
		cr_expect_eq(p.start[i].val & (3ull << 40), 0, "Host/Guest-only bits, start %u", i);
}

Test(pmu_plan, amd_v2_uses_the_global_control)
{
	struct pmu_caps c = caps_of(amd(0x19, true, 6), &all_ok);
	const uint64_t ev[] = {0x0076 | U, 0x00c0 | K};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 2, &p);
	expect_op(&p.setup[0], MSR_AMD_PERF_GLOBAL_CTL, 0, "off first");
	expect_op(&p.setup[1], 0xc0010200, 0x0076 | U | EN, "armed");
	cr_assert_eq(p.nr_start, 1);
	expect_op(&p.start[0], MSR_AMD_PERF_GLOBAL_CTL, 0x3, "start");
	expect_op(&p.stop[0], MSR_AMD_PERF_GLOBAL_CTL, 0, "stop");
}

Test(pmu_plan, amd_legacy_more_events_than_counters)
{
	struct pmu_caps c = caps_of(amd(0x10, false, 0), &all_ok);
	const uint64_t ev[] = {0x76 | UK, 0xc0 | UK, 0xc2 | UK, 0xc3 | UK, 0x76 | U};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 5, &p);
	for (unsigned k = 0; k < 4; k++)
		expect_slot(&p, k, PMU_SLOT_GP, k);
	expect_slot(&p, 4, PMU_SLOT_NO_COUNTER, 0);
	expect_op(&p.setup[3], 0xc0010003, 0xc3 | UK, "evntsel 3");
	cr_expect_eq(p.slot[3].ctr_msr, 0xc0010007);
	cr_expect_eq(p.nr_start, 4);
}

Test(pmu_plan, no_pmu_touches_no_msr)
{
	struct pmu_caps c = caps_of(amd(0x19, false, 0), &(struct pmu_probe){0});
	const uint64_t ev[] = {0x76 | UK, 0xc0 | K};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 2, &p);
	expect_slot(&p, 0, PMU_SLOT_UNSUPPORTED, 0);
	expect_slot(&p, 1, PMU_SLOT_UNSUPPORTED, 0);
	cr_expect_eq(p.nr_setup + p.nr_start + p.nr_stop, 0);
}

Test(pmu_plan, unavailable_architectural_events)
{
	/* EBX bit 5 (branches) set; a 6-bit vector, so bit 6 (branch-misses) is not enumerated. */
	struct pmu_caps c = caps_of(intel(2, 8, 6, 1u << 5 | 1u << 1, 3), &all_ok);
	const uint64_t ev[] = {0x00c4 | UK, 0x00c5 | UK, 0x00c0 | K, 0x412e | UK, 0x0e08 | UK};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 5, &p);
	expect_slot(&p, 0, PMU_SLOT_UNSUPPORTED, 0);
	expect_slot(&p, 1, PMU_SLOT_UNSUPPORTED, 0);
	expect_slot(&p, 2, PMU_SLOT_FIXED, 0); /* fixed counters are enumerated on their own */
	expect_slot(&p, 3, PMU_SLOT_GP, 0);
	expect_slot(&p, 4, PMU_SLOT_GP, 1); /* model-specific: only the count can tell */
	c = caps_of(intel(1, 8, 7, 1u << 1, 0), &all_ok);
	pmu_plan_build(&c, ev + 2, 1, &p);
	expect_slot(&p, 0, PMU_SLOT_UNSUPPORTED, 0);
}

Test(pmu_plan, invalid_configs_are_unsupported)
{
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &all_ok);
	const uint64_t ev[] = {EL_EVENT_NONE, 0x00c4, 0x00c4 | UK | EN, 0x100000120ull | UK,
			       0x00c4 | UK | (1ull << 40)};
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 5, &p);
	for (unsigned k = 0; k < 5; k++)
		expect_slot(&p, k, PMU_SLOT_UNSUPPORTED, 0);
	cr_expect_eq(p.nr_setup, 0);
}

Test(pmu_plan, qualified_instructions_go_to_a_gp_counter)
{
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &all_ok);
	const uint64_t ev[] = {0x00c0 | UK | 1ull << 24}; /* cmask 1 */
	struct pmu_plan p;

	pmu_plan_build(&c, ev, 1, &p);
	expect_slot(&p, 0, PMU_SLOT_GP, 0);
}

Test(pmu_plan, fault_on_fixed_control_drops_the_fixed_slots)
{
	struct pmu_caps c = caps_of(intel(2, 8, 7, 0, 3), &all_ok);
	const uint64_t ev[] = {0x00c0 | K, 0x00c4 | U};
	struct pmu_plan p;
	struct pmu_op bad;

	pmu_plan_build(&c, ev, 2, &p);
	bad = p.setup[1];
	cr_assert_eq(bad.msr, MSR_IA32_FIXED_CTR_CTRL);
	pmu_plan_fault(&c, &p, &bad);
	expect_slot(&p, 0, PMU_SLOT_UNSUPPORTED, 0);
	expect_slot(&p, 1, PMU_SLOT_GP, 0);
	for (unsigned i = 0; i < p.nr_setup; i++)
		cr_expect_neq(p.setup[i].msr, MSR_IA32_FIXED_CTR_CTRL);
	expect_op(&p.start[0], MSR_IA32_PERF_GLOBAL_CTRL, 0x1, "only pmc 0 left");
}

Test(pmu_plan, fault_on_an_event_select_drops_that_slot)
{
	struct pmu_caps c = caps_of(amd(0x19, true, 0), &all_ok);
	const uint64_t ev[] = {0x0076 | U, 0x00c0 | K};
	struct pmu_plan p;
	struct pmu_op bad;

	pmu_plan_build(&c, ev, 2, &p);
	bad = p.setup[0];
	pmu_plan_fault(&c, &p, &bad);
	expect_slot(&p, 0, PMU_SLOT_UNSUPPORTED, 0);
	expect_slot(&p, 1, PMU_SLOT_GP, 1);
	cr_expect_eq(p.nr_start, 1);
}

static enum el_counter_status decide(const struct pmu_plan *p, unsigned k, int vec, uint64_t raw,
				     bool user_ran, uint64_t *v)
{
	return pmu_decide(&p->slot[k], PMU_VENDOR_INTEL, vec, raw, user_ran, v);
}

Test(pmu_status, decisions_from_readings)
{
	struct pmu_caps c = caps_of(intel(1, 3, 7, 0, 0), &all_ok);
	const uint64_t ev[] = {0x00c0 | K, 0x00c0 | U, 0x412e | UK, 0x00c4 | U, EL_EVENT_NONE};
	struct pmu_plan p;
	uint64_t v = 99;

	pmu_plan_build(&c, ev, 5, &p);
	cr_expect_eq(decide(&p, 0, 0, 1234, true, &v), EL_COUNTER_COUNTED);
	cr_expect_eq(v, 1234);
	cr_expect_eq(decide(&p, 0, 0, 0, true, &v), EL_COUNTER_NOT_COUNTED,
		     "instructions:k did not advance");
	cr_expect_eq(v, 0);
	cr_expect_eq(decide(&p, 1, 0, 0, false, &v), EL_COUNTER_COUNTED,
		     "instructions:u in a kernel-only region: 0 is the truth");
	cr_expect_eq(decide(&p, 1, 0, 0, true, &v), EL_COUNTER_NOT_COUNTED);
	cr_expect_eq(decide(&p, 2, 0, 0, true, &v), EL_COUNTER_COUNTED, "no cache miss is fine");
	cr_expect_eq(decide(&p, 0, 13, 5, true, &v), EL_COUNTER_NOT_SUPPORTED, "RDMSR #GP");
	cr_expect_eq(decide(&p, 3, 0, 0, true, &v), EL_COUNTER_NOT_COUNTED, "no free counter");
	cr_expect_eq(decide(&p, 4, 0, 0, true, &v), EL_COUNTER_NOT_SUPPORTED);
	cr_expect_eq(decide(&p, 0, 0, 0xffff000000000007ull, true, &v), EL_COUNTER_COUNTED);
	cr_expect_eq(v, 7, "within the 48-bit width");
}

Test(pmu_status, must_advance_by_vendor)
{
	cr_expect(pmu_event_must_advance(PMU_VENDOR_INTEL, 0x003c | U));
	cr_expect(pmu_event_must_advance(PMU_VENDOR_INTEL, 0x013c | K));
	cr_expect_not(pmu_event_must_advance(PMU_VENDOR_INTEL, 0x0076 | K));
	cr_expect(pmu_event_must_advance(PMU_VENDOR_AMD, 0x0076 | K));
	cr_expect(pmu_event_must_advance(PMU_VENDOR_AMD, 0x100000120ull | K));
	cr_expect_not(pmu_event_must_advance(PMU_VENDOR_AMD, 0x00c0 | K | EL_EVSEL_INV));
	cr_expect_not(pmu_event_must_advance(PMU_VENDOR_AMD, 0x00c2 | K));
}
