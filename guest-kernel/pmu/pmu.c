/*
 * The guest PMU driver.  Decisions live in pmu_caps.c and pmu_plan.c
 * (pure, unit-tested on the host); this file executes them: it reads the
 * PMU's CPUID leaves (not part of boot_cpu: only this driver needs them),
 * probes every enumerated counter with the _safe MSR accessors (a #GP, or a
 * counter that does not keep a written value, as under KVM without a vPMU,
 * means unusable), runs the planned writes, reads the counters and measures
 * the markers' own cost at boot.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "pmu/pmu.h"
#include "pmu/pmu_caps.h"
#include "pmu/pmu_msr.h"
#include "pmu/pmu_plan.h"

/* Positive as a sign-extended 32-bit write, inside every counter width. */
#define PROBE_VALUE 0x5a5aull

static struct pmu_caps caps;
static struct pmu_plan plan;
static struct el_counter counters[EL_MAX_COUNTERS];
static struct el_counter markers[EL_MAX_COUNTERS];

static enum pmu_vendor vendor_of(const char *v)
{
	if (!strcmp(v, "GenuineIntel"))
		return PMU_VENDOR_INTEL;
	if (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine"))
		return PMU_VENDOR_AMD;
	return PMU_VENDOR_OTHER;
}

static void read_cpuid(struct pmu_cpuid *c)
{
	struct cpuid_regs r;

	*c = (struct pmu_cpuid){.vendor = vendor_of(boot_cpu.vendor),
				.family = boot_cpu.family,
				.max_leaf = boot_cpu.max_leaf,
				.max_ext_leaf = boot_cpu.max_ext_leaf};
	if (c->max_leaf >= 0xa) {
		r = cpuid(0xa, 0);
		c->l0a_eax = r.eax, c->l0a_ebx = r.ebx, c->l0a_ecx = r.ecx, c->l0a_edx = r.edx;
	}
	if (c->max_ext_leaf >= 0x80000001)
		c->e1_ecx = cpuid(0x80000001, 0).ecx;
	if (c->max_ext_leaf >= 0x80000022) {
		r = cpuid(0x80000022, 0);
		c->e22_eax = r.eax, c->e22_ebx = r.ebx;
	}
}

/* Readable, writable, and keeps what was written (left at 0). */
static bool counter_works(uint32_t msr)
{
	uint64_t got = 0;
	bool ok = !rdmsr_safe(msr, &got) && !wrmsr_safe(msr, PROBE_VALUE) &&
		  !rdmsr_safe(msr, &got) && (got & 0xffffffffu) == PROBE_VALUE;

	wrmsr_safe(msr, 0);
	return ok;
}

static bool msr_writable(uint32_t msr, uint64_t v)
{
	uint64_t old;

	return !rdmsr_safe(msr, &old) && !wrmsr_safe(msr, v);
}

static void probe(struct pmu_probe *p)
{
	const struct el_pmu_info *info = &caps.info;
	unsigned i;

	*p = (struct pmu_probe){0};
	/* Everything off first: a counter must not run while it is probed. */
	if (caps.global_ctrl)
		p->global_ok = msr_writable(caps.global_ctrl, 0);
	for (i = 0; i < info->nr_gp && i < PMU_MAX_GP; i++)
		if (msr_writable(pmu_gp_evtsel(&caps, i), 0) && counter_works(pmu_gp_ctr(&caps, i)))
			p->gp_ok |= 1u << i;
	if (info->fixed_usable) {
		p->fixed_ctrl_ok = msr_writable(MSR_IA32_FIXED_CTR_CTRL, 0);
		for (i = 0; i < PMU_MAX_FIXED; i++)
			if (((info->fixed_usable >> i) & 1) &&
			    counter_works(MSR_IA32_FIXED_CTR0 + i))
				p->fixed_ok |= 1u << i;
	}
}

/* A write of the plan raised #GP: the plan drops what it served; 1 if so. */
static int run_ops(const struct pmu_op *ops, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (wrmsr_safe(ops[i].msr, ops[i].val)) {
			struct pmu_op bad = ops[i];

			pmu_plan_fault(&caps, &plan, &bad);
			return 1;
		}
	}
	return 0;
}

void pmu_region_prepare(void)
{
	while (run_ops(plan.setup, plan.nr_setup))
		; /* each fault drops slots: this ends */
}

void pmu_region_start(void)
{
	run_ops(plan.start, plan.nr_start);
}

void pmu_region_stop(void)
{
	run_ops(plan.stop, plan.nr_stop);
}

static enum el_counter_status read_slot(unsigned k, bool user_ran, uint64_t *value)
{
	const struct pmu_slot *s = &plan.slot[k];
	uint64_t raw = 0;
	int vec = pmu_slot_counts(s) ? rdmsr_safe(s->ctr_msr, &raw) : 0;

	return pmu_decide(s, caps.vendor, vec, raw, user_ran, value);
}

void pmu_region_read(void)
{
	for (unsigned k = 0; k < plan.nr; k++)
		counters[k].status = read_slot(k, true, &counters[k].value);
}

/* Before any region: nothing counted yet. */
static void counters_reset(void)
{
	for (unsigned k = 0; k < plan.nr; k++) {
		bool unsupported = plan.slot[k].state == PMU_SLOT_UNSUPPORTED;

		counters[k] = (struct el_counter){
			.config = plan.slot[k].cfg,
			.status = unsupported ? EL_COUNTER_NOT_SUPPORTED : EL_COUNTER_NOT_COUNTED};
	}
}

/* Empty regions: the minimum of each counter, counted only if every run counted. */
static void markers_measure(void)
{
	unsigned k, run;
	uint64_t v;

	for (k = 0; k < plan.nr; k++)
		markers[k] = (struct el_counter){.config = plan.slot[k].cfg, .value = ~0ull};
	for (run = 0; run < EL_MARKER_RUNS; run++) {
		pmu_region_prepare();
		pmu_region_start();
		pmu_region_stop();
		for (k = 0; k < plan.nr; k++) {
			enum el_counter_status st = read_slot(k, false, &v);

			if (markers[k].status != EL_COUNTER_COUNTED)
				continue;
			if (st != EL_COUNTER_COUNTED)
				markers[k].status = st;
			else if (v < markers[k].value)
				markers[k].value = v;
		}
	}
	for (k = 0; k < plan.nr; k++)
		if (markers[k].status != EL_COUNTER_COUNTED)
			markers[k].value = 0;
}

static void print_slot(unsigned k)
{
	static const char *const state[] = {"not supported", "no free counter", "GP counter",
					    "fixed counter"};
	const struct pmu_slot *s = &plan.slot[k];

	kprintf("pmu: event 0x%lx: %s", s->cfg, state[s->state]);
	if (pmu_slot_counts(s))
		kprintf(" %u", s->index);
	if (markers[k].status == EL_COUNTER_COUNTED)
		kprintf(", markers %lu", markers[k].value);
	kprintf("\n");
}

static void print_plan(void)
{
	const struct el_pmu_info *info = &caps.info;

	if (info->kind == EL_PMU_NONE && (info->nr_gp || info->nr_fixed))
		kprintf("pmu: none: %u GP and %u fixed counters enumerated, none keeps a written "
			"value (a #GP, or writes ignored as by KVM without a vPMU)\n",
			info->nr_gp, info->nr_fixed);
	else
		kprintf("pmu: %s (version %u), %u GP counters of %u bits (usable 0x%x), %u "
			"fixed (usable 0x%x)\n",
			el_pmu_kind_names[info->kind], info->version, info->nr_gp, info->gp_width,
			info->gp_usable, info->nr_fixed, info->fixed_usable);
	for (unsigned k = 0; k < plan.nr; k++)
		print_slot(k);
}

void pmu_init(const struct el_cmdline *cmdline)
{
	struct pmu_cpuid c;
	struct pmu_probe p;

	read_cpuid(&c);
	pmu_caps_decode(&c, &caps);
	if (caps.info.kind != EL_PMU_NONE) {
		probe(&p);
		pmu_caps_probed(&caps, &p);
	}
	pmu_plan_build(&caps, cmdline->events, cmdline->nr_events, &plan);
	markers_measure();
	counters_reset();
	if (plan.nr || caps.info.kind != EL_PMU_NONE)
		print_plan();
}

void pmu_report(struct el_report *r)
{
	r->nr_counters = plan.nr;
	r->pmu = caps.info;
	for (unsigned k = 0; k < plan.nr; k++) {
		r->counters[k] = counters[k];
		r->markers[k] = markers[k];
	}
}
