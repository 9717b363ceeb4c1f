/*
 * From requested events to MSR writes, and from raw readings to counter
 * statuses.  Pure: the plan is data (which counter each event got, the
 * writes that set up, start and stop them), which pmu.c executes and the
 * host unit tests inspect.
 */
#ifndef EL_PMU_PLAN_H
#define EL_PMU_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "entrylab/abi.h"
#include "pmu_caps.h"

enum pmu_slot_state {
	PMU_SLOT_UNSUPPORTED, /* no PMU, no encoding, event unavailable, MSR #GP */
	PMU_SLOT_NO_COUNTER,  /* supported, but every suitable counter was taken */
	PMU_SLOT_GP,
	PMU_SLOT_FIXED,
};

struct pmu_slot {
	uint64_t cfg;      /* as el.events gave it */
	uint8_t state;     /* enum pmu_slot_state */
	uint8_t index;     /* GP or fixed counter number */
	uint32_t ctr_msr;  /* the counter to read (GP and FIXED) */
	uint64_t mask;     /* the counter's width */
};

/* Which slots an MSR write serves: one, every fixed one, or all. */
#define PMU_OP_ALL (-1)
#define PMU_OP_FIXED (-2)

struct pmu_op {
	uint32_t msr;
	int8_t slot; /* slot index, PMU_OP_ALL or PMU_OP_FIXED */
	uint64_t val;
};

/* Global control off, fixed control, per event: event select and counter. */
#define PMU_MAX_SETUP (2 + 2 * EL_MAX_COUNTERS)

struct pmu_plan {
	unsigned nr;
	struct pmu_slot slot[EL_MAX_COUNTERS];
	/* Before the region: everything stopped, programmed, counters zeroed. */
	unsigned nr_setup;
	struct pmu_op setup[PMU_MAX_SETUP];
	/* Region begin and end: one global-control write, or one enable per counter. */
	unsigned nr_start, nr_stop;
	struct pmu_op start[EL_MAX_COUNTERS], stop[EL_MAX_COUNTERS];
};

/*
 * Assigns counters to cfg[0..n) in order (Intel instructions, cycles and
 * ref-cycles to their fixed counters when free, the rest to the lowest
 * free GP counter) and generates the writes.
 */
void pmu_plan_build(const struct pmu_caps *caps, const uint64_t *cfg, unsigned n,
		    struct pmu_plan *plan);

/*
 * Executing op (one of plan's) raised #GP: the slots it serves become
 * unsupported and the writes are generated again without them.
 */
void pmu_plan_fault(const struct pmu_caps *caps, struct pmu_plan *plan, const struct pmu_op *op);

/* Do the slot's counters hold something to read? */
static inline bool pmu_slot_counts(const struct pmu_slot *s)
{
	return s->state == PMU_SLOT_GP || s->state == PMU_SLOT_FIXED;
}

/*
 * Cycles and instructions (Intel: also ref-cycles) without edge, invert or
 * counter mask: they advance whenever code runs at a level they count.
 */
bool pmu_event_must_advance(enum pmu_vendor vendor, uint64_t cfg);

/*
 * The status of slot s after a region: read_vec is the vector RDMSR of its
 * counter raised (0 = none), raw what it read; user_ran says whether the
 * region ran user code (a kernel-only calibration does not).  *value gets
 * the count (within the counter's width) when the status is COUNTED, else 0.
 */
enum el_counter_status pmu_decide(const struct pmu_slot *s, enum pmu_vendor vendor,
				  int read_vec, uint64_t raw, bool user_ran, uint64_t *value);

#endif
