/*
 * The event table: perf's generic names and their encodings (umask << 8 |
 * event; AMD's event bits 11:8 at 35:32), per microarchitecture family,
 * and how a CPU's vendor/family/model picks one.
 *
 * Sources of the encodings: Intel's architectural events (SDM, CPUID 0AH;
 * the guest still checks 0AH EBX), Skylake/Ice Lake and Golden Cove TLB
 * walks as perf's hardware-cache tables use them, AMD family 17h+ (Zen) as
 * perf maps them, ref-cycles on Zen 4+ (PMCx120, P0-frequency cycles).
 * Other models (pre-Skylake Intel for TLB events, pre-Zen AMD, other
 * vendors) get EL_EVENT_NONE: not-supported rather than a guess.
 */
#include <string.h>

#include "array_size.h"
#include "events.h"
#include "events_priv.h"
#include "host_info.h"

static const char intel[] = "GenuineIntel", amd[] = "AuthenticAMD", hygon[] = "HygonGenuine";

/* CPU models with model-specific rows (family, first and last model). */
static const struct ev_model {
	enum ev_uarch ua;
	const char *vendor;
	unsigned family, model_lo, model_hi;
} uarch_models[] = {
	/* Skylake, Kaby/Coffee/Comet Lake, Ice Lake, Tiger Lake, Rocket Lake */
	{UA_INTEL_SKL, intel, 6, 0x4e, 0x4e}, {UA_INTEL_SKL, intel, 6, 0x5e, 0x5e},
	{UA_INTEL_SKL, intel, 6, 0x55, 0x55}, {UA_INTEL_SKL, intel, 6, 0x8e, 0x8e},
	{UA_INTEL_SKL, intel, 6, 0x9e, 0x9e}, {UA_INTEL_SKL, intel, 6, 0xa5, 0xa6},
	{UA_INTEL_SKL, intel, 6, 0x7d, 0x7e}, {UA_INTEL_SKL, intel, 6, 0x6a, 0x6a},
	{UA_INTEL_SKL, intel, 6, 0x6c, 0x6c}, {UA_INTEL_SKL, intel, 6, 0x8c, 0x8d},
	{UA_INTEL_SKL, intel, 6, 0xa7, 0xa7},
	/* Sapphire Rapids, Emerald Rapids (Golden Cove / Raptor Cove cores) */
	{UA_INTEL_GLC, intel, 6, 0x8f, 0x8f}, {UA_INTEL_GLC, intel, 6, 0xcf, 0xcf},
	/* Zen 4 (family 19h models 10h-1fh, 60h-afh) and Zen 5 (family 1ah) */
	{UA_ZEN4, amd, 0x19, 0x10, 0x1f}, {UA_ZEN4, amd, 0x19, 0x60, 0xaf},
	{UA_ZEN4, amd, 0x1a, 0x00, 0xff},
	/* Zen 1-5; Hygon's family 18h is Zen 1 */
	{UA_ZEN, amd, 0x17, 0x00, 0xff}, {UA_ZEN, hygon, 0x18, 0x00, 0xff},
	{UA_ZEN, amd, 0x19, 0x00, 0xff}, {UA_ZEN, amd, 0x1a, 0x00, 0xff},
};

const struct ev_uarch_desc ev_uarchs[UA_COUNT] = {
	[UA_INTEL] = {"intel", "Intel, architectural"},
	[UA_INTEL_SKL] = {"skl", "Intel Skylake .. Rocket Lake, Ice Lake-SP"},
	[UA_INTEL_GLC] = {"spr", "Intel Sapphire/Emerald Rapids"},
	[UA_ZEN] = {"zen", "AMD Zen 1-5 (family 17h-1ah), Hygon"},
	[UA_ZEN4] = {"zen4", "AMD Zen 4, Zen 5"},
};

const struct ev_row ev_table[] = {
	{"cycles", "cpu-cycles", "core cycles, not halted (Intel: fixed counter 1)",
	 {[UA_INTEL] = 0x003c, [UA_ZEN] = 0x0076}},
	{"instructions", NULL, "instructions retired (Intel: fixed counter 0)",
	 {[UA_INTEL] = 0x00c0, [UA_ZEN] = 0x00c0}},
	{"ref-cycles", NULL, "reference cycles, not halted (Intel: fixed counter 2)",
	 {[UA_INTEL] = 0x013c, [UA_ZEN4] = 0x100000120ull}},
	{"branches", "branch-instructions", "branch instructions retired",
	 {[UA_INTEL] = 0x00c4, [UA_ZEN] = 0x00c2}},
	{"branch-misses", NULL, "mispredicted branches retired",
	 {[UA_INTEL] = 0x00c5, [UA_ZEN] = 0x00c3}},
	{"cache-references", NULL, "Intel: last-level cache references; AMD: L2 accesses",
	 {[UA_INTEL] = 0x4f2e, [UA_ZEN] = 0xff60}},
	{"cache-misses", NULL, "Intel: last-level cache misses; AMD: L2 misses",
	 {[UA_INTEL] = 0x412e, [UA_ZEN] = 0x0964}},
	{"dTLB-load-misses", NULL, "load page walks completed (AMD: L2 DTLB misses)",
	 {[UA_INTEL_SKL] = 0x0e08, [UA_INTEL_GLC] = 0x0e12, [UA_ZEN] = 0xf045}},
	{"iTLB-load-misses", NULL, "instruction page walks completed (AMD: L2 ITLB misses)",
	 {[UA_INTEL_SKL] = 0x0e85, [UA_INTEL_GLC] = 0x0e11, [UA_ZEN] = 0xff85}},
};

const unsigned ev_table_len = EL_ARRAY_SIZE(ev_table);

/* The CPU's rows, most specific first; returns how many (<= EV_MAX_UARCHS). */
unsigned ev_uarchs_of(const struct el_event_cpu *cpu, enum ev_uarch *out)
{
	unsigned n = 0;

	if (!cpu || !cpu->vendor)
		return 0;
	for (size_t i = 0; i < EL_ARRAY_SIZE(uarch_models); i++) {
		const struct ev_model *m = &uarch_models[i];

		if (strcmp(cpu->vendor, m->vendor) || cpu->family != m->family ||
		    cpu->model < m->model_lo || cpu->model > m->model_hi)
			continue;
		if (n < EV_MAX_UARCHS)
			out[n++] = m->ua;
	}
	/* Every Intel CPU with a PMU has the architectural events (0AH EBX says which). */
	if (!strcmp(cpu->vendor, intel) && n < EV_MAX_UARCHS)
		out[n++] = UA_INTEL;
	return n;
}

uint64_t events_resolve(const struct el_event_req *e, const struct el_event_cpu *cpu)
{
	enum ev_uarch ua[EV_MAX_UARCHS];
	unsigned n;

	if (e->id < 0)
		return e->raw | e->priv;
	if ((unsigned)e->id >= ev_table_len)
		return EL_EVENT_NONE;
	n = ev_uarchs_of(cpu, ua);
	for (unsigned i = 0; i < n; i++)
		if (ev_table[e->id].code[ua[i]])
			return ev_table[e->id].code[ua[i]] | e->priv;
	return EL_EVENT_NONE;
}

void events_resolve_all(const struct el_event_list *list, const struct el_event_cpu *cpu,
			uint64_t *cfg)
{
	for (unsigned i = 0; i < list->n; i++)
		cfg[i] = events_resolve(&list->ev[i], cpu);
}

static void print_code(FILE *f, uint64_t code)
{
	char buf[24];

	if (code)
		snprintf(buf, sizeof(buf), "0x%04llx", (unsigned long long)code);
	else
		snprintf(buf, sizeof(buf), "-");
	fprintf(f, " %-11s", buf);
}

void events_list(FILE *f, const struct el_event_cpu *cpu)
{
	struct el_event_req req = {.priv = 0};
	unsigned i, u;

	fprintf(f, "%-18s", "event");
	for (u = 0; u < UA_COUNT; u++)
		fprintf(f, " %-11s", ev_uarchs[u].column);
	fprintf(f, " %-11s %s\n", "this-cpu", "what");
	for (i = 0; i < ev_table_len; i++) {
		fprintf(f, "%-18s", ev_table[i].name);
		for (u = 0; u < UA_COUNT; u++)
			print_code(f, ev_table[i].code[u]);
		req.id = (int)i;
		print_code(f, events_resolve(&req, cpu));
		fprintf(f, " %s%s%s\n", ev_table[i].what, ev_table[i].alias ? "; alias " : "",
			ev_table[i].alias ? ev_table[i].alias : "");
	}
	fprintf(f, "%-18s raw event select: umask << 8 | event, as perf (AMD: bits 35:32 extend "
		   "the event), plus edge (bit 18), inv (23), cmask (31:24)\n",
		"rUUEE");
	fprintf(f, "\nmodifiers: NAME:u user mode only, NAME:k kernel only, none (or :uk) both\n");
	fprintf(f, "columns:");
	for (u = 0; u < UA_COUNT; u++)
		fprintf(f, "%s %s = %s", u ? ";" : "", ev_uarchs[u].column, ev_uarchs[u].what);
	fprintf(f, "\nthis-cpu: %s family 0x%x model 0x%x (- = not-supported on this model)\n",
		cpu && cpu->vendor ? cpu->vendor : "?", cpu ? cpu->family : 0,
		cpu ? cpu->model : 0);
}

void events_for_this_cpu(const struct el_event_list *list, uint64_t *cfg)
{
	struct el_host_info hi;
	struct el_event_cpu cpu;

	host_info_get(&hi, NULL);
	cpu = (struct el_event_cpu){hi.vendor, hi.family, hi.model};
	events_resolve_all(list, &cpu, cfg);
}

void events_list_this_cpu(FILE *f)
{
	struct el_host_info hi;
	struct el_event_cpu cpu;

	host_info_get(&hi, NULL);
	cpu = (struct el_event_cpu){hi.vendor, hi.family, hi.model};
	events_list(f, &cpu);
}
