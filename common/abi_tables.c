/*
 * The ABI's data tables, defined once: include/entrylab/ declares them, and
 * every world that reads them compiles this file (the host in el_common,
 * the guest kernel and Linux's /init from here; cmake/README.md).  Pure C
 * like the rest of common/'s shared files: the headers of include/entrylab/
 * and nothing else.
 */
#include "array_size.h"
#include "entrylab/abi.h"
#include "entrylab/exceptions.h"
#include "entrylab/features.h"
#include "entrylab/knobs.h"
#include "entrylab/selfcheck.h"

const char *const el_region_scope_names[EL_REGION_SCOPE_COUNT] = {
	"none", "marked", "whole",
};
const char *const el_region_scope_record[EL_REGION_SCOPE_COUNT] = {
	"none", "marked", "whole-program",
};

const char *const el_pmu_kind_names[EL_PMU_KIND_COUNT] = {
	"none", "intel-v1", "intel-v2", "amd-legacy", "amd-core", "amd-v2",
};

const struct el_feature_desc el_features[EL_FEAT_COUNT] = {
#define EL_FEATURE(id, name_, leaf_, subleaf_, reg_, mask_, enf_) \
	[EL_FEAT_##id] = {.name = name_, .leaf = leaf_, .subleaf = subleaf_, \
			  .reg = reg_, .mask = mask_, .enforcement = enf_},
#include "entrylab/features.def"
#undef EL_FEATURE
};

const struct el_selfcheck_desc el_selfchecks[EL_SELFCHECK_COUNT] = {
#define EL_SELFCHECK(id, name_, desc_) {.name = name_, .description = desc_},
#include "entrylab/selfcheck.def"
#undef EL_SELFCHECK
};

static const char *const el_values_offon[] = {"off", "on", 0};
static const char *const el_values_onoff[] = {"on", "off", 0};

const struct el_config_desc el_config[EL_CFG_COUNT] = {
	[EL_CFG_PTI] = {"pti", EL_OFF, el_values_offon},
	[EL_CFG_PCID] = {"pcid", EL_ON, el_values_offon},
	[EL_CFG_INVPCID] = {"invpcid", EL_ON, el_values_offon},
	[EL_CFG_PGE] = {"pge", EL_ON, el_values_offon},
	[EL_CFG_GLOBAL] = {"global", EL_GLOBAL_ENTRY,
			   (const char *const[]){"none", "entry", "all", 0}},
	[EL_CFG_RET] = {"ret", EL_RET_IRET, (const char *const[]){"iret", "sysret", 0}},
	[EL_CFG_IRQ_RETURN] = {"irq_return", EL_IRQRET_DIRECT,
			       (const char *const[]){"direct", "trampoline", 0}},
	[EL_CFG_VSYSCALL] = {"vsyscall", EL_VSYSCALL_XONLY,
			     (const char *const[]){"native", "emulate", "xonly", "none", 0}},
	[EL_CFG_VDSO] = {"vdso", EL_VDSO_ON, el_values_onoff},
	[EL_CFG_VDSO_TSC] = {"vdso_tsc", EL_TSC_LFENCE,
			     (const char *const[]){"lfence", "lfence2", "rdtscp", "none", 0}},
	[EL_CFG_VDSO_CLAMP] = {"vdso_clamp", EL_CLAMP_BRANCH,
			       (const char *const[]){"branch", "cmov", 0}},
	[EL_CFG_REGION_TICK] = {"region_tick", EL_OFF, el_values_offon},
};

const struct el_knob_desc el_knobs[] = {
	{"pti", EL_CFG_PTI, -1, "kernel page-table isolation"},
	{"nopti", EL_CFG_PTI, EL_OFF, "same as pti=off"},
	{"nopcid", EL_CFG_PCID, EL_OFF, "do not use PCID even if CPUID offers it"},
	{"noinvpcid", EL_CFG_INVPCID, EL_OFF, "do not use INVPCID even if CPUID offers it"},
	{"pti.global", EL_CFG_GLOBAL, -1, "kernel mappings made global (needs PGE)"},
	{"entry.ret", EL_CFG_RET, -1, "return to user after exceptions and interrupts"},
	{"entry.irq_return", EL_CFG_IRQ_RETURN, -1, "copy the IRET frame to the entry stack always, or only with PTI"},
	{"vsyscall", EL_CFG_VSYSCALL, -1, "legacy vsyscall page mode"},
	{"vdso", EL_CFG_VDSO, -1, "map the vDSO (off: libc falls back to syscalls)"},
	{"vdso.tsc", EL_CFG_VDSO_TSC, -1, "ordering of the vDSO's TSC read"},
	{"vdso.clamp", EL_CFG_VDSO_CLAMP, -1, "how the vDSO clamps to cycle_last"},
	{"sched.region_tick", EL_CFG_REGION_TICK, -1, "preempt with the timer inside the measured region (default off: no timer interrupt there)"},
};
const size_t el_knob_count = EL_ARRAY_SIZE(el_knobs);

const struct el_exception el_exceptions[EL_NR_EXCEPTIONS] = {
#define EL_EXCEPTION(vector, mnemonic_, name_, error_code_) \
	[vector] = {.mnemonic = mnemonic_, .name = name_, .error_code = error_code_},
#include "entrylab/exceptions.def"
#undef EL_EXCEPTION
};

/*
 * The shape of ABI 4 (abi.h, above EL_ABI_VERSION): the report's size and
 * the length of each table whose rows cross the boundary.  A change to any
 * of them is a new ABI: bump EL_ABI_VERSION and pin the new shape here
 * (tests/unit/test_abi_tables.c pins the contents).
 */
_Static_assert(EL_ABI_VERSION == 4 && sizeof(struct el_report) == 624 && EL_HC_COUNT == 4 &&
		       EL_WRITE_MAX == 65536 && EL_REGION_SCOPE_COUNT == 3 &&
		       EL_PMU_KIND_COUNT == 6 && EL_FEAT_COUNT == 20 && EL_SELFCHECK_COUNT == 8 &&
		       EL_CFG_COUNT == 12 && EL_ARRAY_SIZE(el_knobs) == 12,
	       "the ABI changed shape: bump EL_ABI_VERSION (abi.h) and pin the new shape here");
