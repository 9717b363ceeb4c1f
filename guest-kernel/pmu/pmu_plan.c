/*
 * Counter assignment and the MSR writes around a region (pure; see
 * pmu_plan.h).  With a global control (Intel v2, AMD PerfMonV2) every event
 * select is written enabled beforehand and one WRMSR starts or stops them
 * all, so every counter sees the same instructions.  Without one (Intel v1,
 * AMD core and legacy) the enable bits are flipped counter by counter, stop
 * in the same order as start: counter i then counts the n-1-i enables after
 * its own and the i disables before its own, n-1 writes for each of them.
 */
#include "pmu_plan.h"
#include "pmu_msr.h"

#define CFG_EVENT_UMASK (EL_EVSEL_EVENT | EL_EVSEL_UMASK)
#define CFG_QUALIFIERS (EL_EVSEL_EDGE | EL_EVSEL_INV | EL_EVSEL_CMASK)

/* Intel events with a fixed counter: counter j counts fixed_events[j]. */
static const uint64_t fixed_events[PMU_MAX_FIXED] = {0x00c0, 0x003c, 0x013c};

/* Intel architectural events in CPUID 0AH EBX bit order. */
static const uint64_t intel_arch_events[] = {0x003c, 0x00c0, 0x013c, 0x4f2e,
					     0x412e, 0x00c4, 0x00c5, 0x01a4};

static const uint64_t intel_must_advance[] = {0x003c, 0x00c0, 0x013c};
static const uint64_t amd_must_advance[] = {0x0076, 0x00c0, 0x100000120ull};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t width_mask(unsigned bits)
{
	return bits == 0 || bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int table_index(const uint64_t *table, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		if (table[i] == v)
			return (int)i;
	return -1;
}

static bool cfg_valid(const struct pmu_caps *caps, uint64_t cfg)
{
	if (cfg == EL_EVENT_NONE || (cfg & ~EL_EVSEL_ALLOWED) ||
	    !(cfg & (EL_EVSEL_USR | EL_EVSEL_OS)))
		return false;
	/* The extended event select is AMD's; Intel has reserved bits there. */
	return caps->vendor == PMU_VENDOR_AMD || !(cfg & EL_EVSEL_EVENT_HI);
}

static int fixed_counter_for(const struct pmu_caps *caps, uint64_t cfg, uint32_t taken)
{
	int j;

	if (caps->vendor != PMU_VENDOR_INTEL || (cfg & CFG_QUALIFIERS))
		return -1;
	j = table_index(fixed_events, PMU_MAX_FIXED, cfg & CFG_EVENT_UMASK);
	if (j < 0 || !((caps->info.fixed_usable >> j) & 1) || ((taken >> j) & 1))
		return -1;
	return j;
}

static bool arch_event_unavailable(const struct pmu_caps *caps, uint64_t cfg)
{
	int e;

	if (caps->vendor != PMU_VENDOR_INTEL)
		return false;
	e = table_index(intel_arch_events, ARRAY_LEN(intel_arch_events), cfg & CFG_EVENT_UMASK);
	return e >= 0 && ((caps->arch_unavail >> e) & 1);
}

static int free_gp(const struct pmu_caps *caps, uint32_t taken)
{
	for (unsigned i = 0; i < caps->info.nr_gp && i < PMU_MAX_GP; i++)
		if (((caps->info.gp_usable >> i) & 1) && !((taken >> i) & 1))
			return (int)i;
	return -1;
}

static void assign(const struct pmu_caps *caps, struct pmu_plan *plan)
{
	uint32_t gp_taken = 0, fixed_taken = 0;

	for (unsigned k = 0; k < plan->nr; k++) {
		struct pmu_slot *s = &plan->slot[k];
		int c;

		s->state = PMU_SLOT_UNSUPPORTED;
		if (caps->info.kind == EL_PMU_NONE || !cfg_valid(caps, s->cfg))
			continue;
		if ((c = fixed_counter_for(caps, s->cfg, fixed_taken)) >= 0) {
			fixed_taken |= 1u << c;
			*s = (struct pmu_slot){s->cfg, PMU_SLOT_FIXED, (uint8_t)c,
					       MSR_IA32_FIXED_CTR0 + (uint32_t)c,
					       width_mask(caps->info.fixed_width)};
			continue;
		}
		if (arch_event_unavailable(caps, s->cfg))
			continue;
		if ((c = free_gp(caps, gp_taken)) < 0) {
			s->state = PMU_SLOT_NO_COUNTER;
			continue;
		}
		gp_taken |= 1u << c;
		*s = (struct pmu_slot){s->cfg, PMU_SLOT_GP, (uint8_t)c,
				       pmu_gp_ctr(caps, (unsigned)c),
				       width_mask(caps->info.gp_width)};
	}
}

static void op(struct pmu_op *ops, unsigned *n, unsigned max, uint32_t msr, int slot, uint64_t v)
{
	if (*n < max)
		ops[(*n)++] = (struct pmu_op){msr, (int8_t)slot, v};
}

static void generate(const struct pmu_caps *caps, struct pmu_plan *plan)
{
	bool global = caps->global_ctrl != 0;
	uint64_t fixed_ctrl = 0, enable = 0;
	unsigned k;

	plan->nr_setup = plan->nr_start = plan->nr_stop = 0;
	for (k = 0; k < plan->nr; k++) {
		const struct pmu_slot *s = &plan->slot[k];

		if (s->state == PMU_SLOT_FIXED) {
			fixed_ctrl |= (((s->cfg & EL_EVSEL_OS) ? FIXED_CTRL_OS : 0) |
				       ((s->cfg & EL_EVSEL_USR) ? FIXED_CTRL_USR : 0))
				      << (4 * s->index);
			enable |= 1ull << (GLOBAL_FIXED_SHIFT + s->index);
		} else if (s->state == PMU_SLOT_GP) {
			enable |= 1ull << s->index;
		}
	}
	if (!enable)
		return; /* nothing counts: the region touches no MSR */
	if (global)
		op(plan->setup, &plan->nr_setup, PMU_MAX_SETUP, caps->global_ctrl, PMU_OP_ALL, 0);
	if (fixed_ctrl)
		op(plan->setup, &plan->nr_setup, PMU_MAX_SETUP, MSR_IA32_FIXED_CTR_CTRL,
		   PMU_OP_FIXED, fixed_ctrl);
	for (k = 0; k < plan->nr; k++) {
		const struct pmu_slot *s = &plan->slot[k];

		if (s->state != PMU_SLOT_GP)
			continue;
		op(plan->setup, &plan->nr_setup, PMU_MAX_SETUP, pmu_gp_evtsel(caps, s->index),
		   (int)k, s->cfg | (global ? EVTSEL_EN : 0));
		if (!global) {
			op(plan->start, &plan->nr_start, EL_MAX_COUNTERS,
			   pmu_gp_evtsel(caps, s->index), (int)k, s->cfg | EVTSEL_EN);
			op(plan->stop, &plan->nr_stop, EL_MAX_COUNTERS,
			   pmu_gp_evtsel(caps, s->index), (int)k, s->cfg);
		}
	}
	for (k = 0; k < plan->nr; k++)
		if (pmu_slot_counts(&plan->slot[k]))
			op(plan->setup, &plan->nr_setup, PMU_MAX_SETUP, plan->slot[k].ctr_msr,
			   (int)k, 0);
	if (global) {
		op(plan->start, &plan->nr_start, EL_MAX_COUNTERS, caps->global_ctrl, PMU_OP_ALL,
		   enable);
		op(plan->stop, &plan->nr_stop, EL_MAX_COUNTERS, caps->global_ctrl, PMU_OP_ALL, 0);
	}
}

void pmu_plan_build(const struct pmu_caps *caps, const uint64_t *cfg, unsigned n,
		    struct pmu_plan *plan)
{
	*plan = (struct pmu_plan){.nr = n < EL_MAX_COUNTERS ? n : EL_MAX_COUNTERS};
	for (unsigned k = 0; k < plan->nr; k++)
		plan->slot[k].cfg = cfg[k];
	assign(caps, plan);
	generate(caps, plan);
}

void pmu_plan_fault(const struct pmu_caps *caps, struct pmu_plan *plan, const struct pmu_op *o)
{
	for (unsigned k = 0; k < plan->nr; k++) {
		struct pmu_slot *s = &plan->slot[k];

		if (!pmu_slot_counts(s))
			continue;
		if (o->slot == PMU_OP_ALL || o->slot == (int)k ||
		    (o->slot == PMU_OP_FIXED && s->state == PMU_SLOT_FIXED))
			s->state = PMU_SLOT_UNSUPPORTED;
	}
	generate(caps, plan);
}

bool pmu_event_must_advance(enum pmu_vendor vendor, uint64_t cfg)
{
	uint64_t ev = cfg & (CFG_EVENT_UMASK | EL_EVSEL_EVENT_HI);

	if (cfg & CFG_QUALIFIERS)
		return false;
	if (vendor == PMU_VENDOR_INTEL)
		return table_index(intel_must_advance, ARRAY_LEN(intel_must_advance), ev) >= 0;
	if (vendor == PMU_VENDOR_AMD)
		return table_index(amd_must_advance, ARRAY_LEN(amd_must_advance), ev) >= 0;
	return false;
}

enum el_counter_status pmu_decide(const struct pmu_slot *s, enum pmu_vendor vendor,
				  int read_vec, uint64_t raw, bool user_ran, uint64_t *value)
{
	bool ran_counted_level;

	*value = 0;
	if (s->state == PMU_SLOT_UNSUPPORTED || read_vec)
		return EL_COUNTER_NOT_SUPPORTED;
	if (s->state == PMU_SLOT_NO_COUNTER)
		return EL_COUNTER_NOT_COUNTED;
	ran_counted_level = (s->cfg & EL_EVSEL_OS) || ((s->cfg & EL_EVSEL_USR) && user_ran);
	if ((raw & s->mask) == 0 && ran_counted_level && pmu_event_must_advance(vendor, s->cfg))
		return EL_COUNTER_NOT_COUNTED;
	*value = raw & s->mask;
	return EL_COUNTER_COUNTED;
}
