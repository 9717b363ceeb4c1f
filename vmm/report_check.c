/*
 * The guest's reports, checked before anything of theirs is believed: the
 * shape field by field, then consistency with themselves and with what the
 * VMM saw.  Every refusal names the field and the value (report_check.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "array_size.h"
#include "entrylab/knobs.h"
#include "report_check.h"

#define ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)

static const char *const kind_names[] = {
	[EL_REPORT_BOOT] = "BOOT",
	[EL_REPORT_RUN] = "RUN",
};

static unsigned config_nr_values(unsigned item)
{
	unsigned n = 0;

	while (el_config[item].values[n])
		n++;
	return n;
}

static int config_check(const uint8_t *vals, const char *field, char *err, size_t errlen)
{
	for (unsigned i = 0; i < EL_CFG_COUNT; i++) {
		uint8_t v = vals[i];

		if (v < config_nr_values(i) || v == EL_CONFIG_UNAVAILABLE || v == EL_CONFIG_UNSET)
			continue;
		return ERR("report %s[%u] (%s) = %u is not a value of %s", field, i,
			   el_config[i].key, v, el_config[i].key);
	}
	return 0;
}

int hcall_report_check(const struct el_report *r, char *err, size_t errlen)
{
	if (r->magic != EL_REPORT_MAGIC)
		return ERR("report magic 0x%08x is not EL_REPORT_MAGIC 0x%08x", r->magic,
			   EL_REPORT_MAGIC);
	if (r->abi_version != EL_ABI_VERSION)
		return ERR("report abi_version %u, but this entrylab speaks %u: rebuild the guest "
			   "kernel with this tree",
			   r->abi_version, EL_ABI_VERSION);
	if (r->size != sizeof(*r))
		return ERR("report size %u is not sizeof(struct el_report) = %zu", r->size,
			   sizeof(*r));
	if (r->kind != EL_REPORT_BOOT && r->kind != EL_REPORT_RUN)
		return ERR("report kind %u is neither BOOT (%u) nor RUN (%u)", r->kind,
			   EL_REPORT_BOOT, EL_REPORT_RUN);
	if (r->nr_counters > EL_MAX_COUNTERS)
		return ERR("report nr_counters %u exceeds EL_MAX_COUNTERS (%u)", r->nr_counters,
			   EL_MAX_COUNTERS);
	for (uint32_t i = 0; i < r->nr_counters; i++) {
		if (r->counters[i].status > EL_COUNTER_NOT_COUNTED)
			return ERR("report counters[%u].status %u is not a counter status", i,
				   r->counters[i].status);
		if (r->markers[i].status > EL_COUNTER_NOT_COUNTED)
			return ERR("report markers[%u].status %u is not a counter status", i,
				   r->markers[i].status);
	}
	if (r->pmu.kind >= EL_PMU_KIND_COUNT)
		return ERR("report pmu.kind %u is not a PMU kind (< %u)", r->pmu.kind,
			   (unsigned)EL_PMU_KIND_COUNT);
	if (r->timer.late_last_ns > r->timer.late_max_ns)
		return ERR("report timer.late_last_ns %" PRIu64 " exceeds timer.late_max_ns %" PRIu64,
			   r->timer.late_last_ns, r->timer.late_max_ns);
	if (r->timer.fallbacks > r->timer.interrupts)
		return ERR("report timer.fallbacks %u exceeds timer.interrupts %" PRIu64,
			   r->timer.fallbacks, r->timer.interrupts);
	if (r->region_scope >= EL_REGION_SCOPE_COUNT)
		return ERR("report region_scope %u is not a scope (< %u)", r->region_scope,
			   (unsigned)EL_REGION_SCOPE_COUNT);
	if (r->kind == EL_REPORT_BOOT && r->region_scope != EL_REGION_SCOPE_NONE)
		return ERR("BOOT report: region_scope %u, but no region precedes boot (0)",
			   r->region_scope);
	if (config_check(r->config, "config", err, errlen) ||
	    config_check(r->requested, "requested", err, errlen))
		return -1;
	return 0;
}

/* Region counts: each event takes at least one TSC tick. */
static const struct {
	const char *name;
	size_t offset;
} region_counts[] = {
	{"syscalls", offsetof(struct el_region, syscalls)},
	{"page_faults", offsetof(struct el_region, page_faults)},
	{"interrupts", offsetof(struct el_region, interrupts)},
};

static uint64_t region_count(const struct el_region *g, size_t offset)
{
	return *(const uint64_t *)((const char *)g + offset);
}

/* The markers the VMM saw against the region's valid flag. */
static int region_markers(const struct el_region *g, const struct el_report_seen *seen, char *err,
			  size_t errlen)
{
	bool both = seen->region_begun && seen->region_ended;

	if (g->valid > 1)
		return ERR("RUN report: region.valid %u is neither 0 nor 1", g->valid);
	if (g->valid && !seen->region_begun)
		return ERR("RUN report: region.valid 1, but the VMM saw no EL_HC_REGION_BEGIN");
	if (g->valid && !seen->region_ended)
		return ERR("RUN report: region.valid 1, but the VMM saw no EL_HC_REGION_END after "
			   "its EL_HC_REGION_BEGIN");
	if (!g->valid && both)
		return ERR("RUN report: region.valid 0, but the VMM saw EL_HC_REGION_BEGIN and "
			   "EL_HC_REGION_END");
	return 0;
}

/* The scope against the region and against what the host asked (abi.h enum el_region_scope). */
static int region_scope_check(const struct el_report *r, const struct el_report_seen *seen,
			      char *err, size_t errlen)
{
	const struct el_region *g = &r->region;
	const char *got = el_region_scope_names[r->region_scope]; /* checked < COUNT (shape) */

	if (!g->valid && r->region_scope != EL_REGION_SCOPE_NONE)
		return ERR("RUN report: region.valid 0, but region_scope is %s (none when no region "
			   "was measured)", got);
	if (!g->valid)
		return 0;
	if (r->region_scope == EL_REGION_SCOPE_NONE)
		return ERR("RUN report: region.valid 1, but region_scope is none");
	if (seen->scope != EL_REGION_SCOPE_NONE && seen->scope < EL_REGION_SCOPE_COUNT &&
	    r->region_scope != seen->scope)
		return ERR("RUN report: region_scope %s, but the host asked %s", got,
			   el_region_scope_names[seen->scope]);
	if (r->region_scope == EL_REGION_SCOPE_WHOLE && g->iterations)
		return ERR("RUN report: region.iterations %" PRIu64 " in a whole-program region "
			   "(its iterations are 0: nobody declares them)", g->iterations);
	return 0;
}

int report_check_region(const struct el_report *r, const struct el_report_seen *seen, char *err,
			size_t errlen)
{
	const struct el_region *g = &r->region;
	uint64_t ticks;

	if (r->kind != EL_REPORT_RUN)
		return 0;
	if (region_markers(g, seen, err, errlen) || region_scope_check(r, seen, err, errlen))
		return -1;
	if (!g->valid)
		return 0; /* no region: the record shows none of it */
	if (g->tsc_end < g->tsc_begin)
		return ERR("RUN report: region.tsc_end %" PRIu64 " < tsc_begin %" PRIu64,
			   g->tsc_end, g->tsc_begin);
	ticks = g->tsc_end - g->tsc_begin;
	if (ticks > INT64_MAX)
		return ERR("RUN report: region of %" PRIu64 " TSC ticks (tsc_end - tsc_begin) "
			   "exceeds 2^63-1",
			   ticks);
	if (g->tsc_khz > EL_REGION_TSC_KHZ_MAX)
		return ERR("RUN report: region.tsc_khz %" PRIu64 " is above %llu (100 GHz)",
			   g->tsc_khz, EL_REGION_TSC_KHZ_MAX);
	for (size_t i = 0; i < EL_ARRAY_SIZE(region_counts); i++) {
		uint64_t n = region_count(g, region_counts[i].offset);

		if (n > ticks)
			return ERR("RUN report: region.%s %" PRIu64 " exceeds the region's %" PRIu64
				   " TSC ticks (each takes at least one)",
				   region_counts[i].name, n, ticks);
	}
	if (g->iterations / EL_REGION_ITERS_PER_TICK > ticks)
		return ERR("RUN report: region.iterations %" PRIu64 " exceeds %u per TSC tick of "
			   "the region's %" PRIu64,
			   g->iterations, EL_REGION_ITERS_PER_TICK, ticks);
	return 0;
}

int report_check_order(const struct el_report *r, const struct el_report_seen *seen, char *err,
		       size_t errlen)
{
	const char *kind = r->kind < EL_ARRAY_SIZE(kind_names) && kind_names[r->kind]
				   ? kind_names[r->kind]
				   : "unknown";

	if (seen->have_run)
		return ERR("%s report after the RUN report: RUN is the last one", kind);
	if (r->kind == EL_REPORT_BOOT && seen->have_boot)
		return ERR("BOOT report sent twice: it comes once, at boot");
	if (r->kind == EL_REPORT_RUN && !seen->have_boot)
		return ERR("RUN report before any BOOT report: BOOT comes first");
	return 0;
}

int report_check(const struct el_report *r, const struct el_report_seen *seen, char *err,
		 size_t errlen)
{
	if (hcall_report_check(r, err, errlen) || report_check_order(r, seen, err, errlen) ||
	    report_check_region(r, seen, err, errlen))
		return -1;
	return 0;
}

int report_check_marker(unsigned nr, const struct el_report_seen *seen, char *err, size_t errlen)
{
	const char *name = nr == EL_HC_REGION_BEGIN ? "EL_HC_REGION_BEGIN" : "EL_HC_REGION_END";

	if (!seen->have_boot)
		return ERR("%s before the BOOT report: markers come from the program", name);
	if (seen->have_run)
		return ERR("%s after the RUN report: the program has ended", name);
	if (nr == EL_HC_REGION_END && (!seen->region_begun || seen->region_ended))
		return ERR("EL_HC_REGION_END without an EL_HC_REGION_BEGIN before it");
	return 0;
}
