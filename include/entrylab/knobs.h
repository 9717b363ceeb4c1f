/*
 * Guest configuration: the items the guest reports as its effective set-up
 * (record key guest.config.<key>) and the command-line knobs that request
 * them.  Shared by the guest kernel (which obeys the knobs) and the VMM
 * (which validates --append before boot and names the values in records).
 * A config value is an index into the item's value list, or
 * EL_CONFIG_UNAVAILABLE / EL_CONFIG_UNSET (abi.h).
 */
#ifndef ENTRYLAB_KNOBS_H
#define ENTRYLAB_KNOBS_H

#include "abi.h"

enum el_config_item {
	EL_CFG_PTI,        /* off | on */
	EL_CFG_PCID,       /* off | on */
	EL_CFG_INVPCID,    /* off | on */
	EL_CFG_PGE,        /* off | on (CR4.PGE) */
	EL_CFG_GLOBAL,     /* none | entry | all */
	EL_CFG_RET,        /* iret | sysret */
	EL_CFG_IRQ_RETURN, /* direct | trampoline */
	EL_CFG_VSYSCALL,   /* native | emulate | xonly | none */
	EL_CFG_VDSO,       /* on | off */
	EL_CFG_VDSO_TSC,   /* lfence | lfence2 | rdtscp | none */
	EL_CFG_VDSO_CLAMP, /* branch | cmov */
	EL_CFG_REGION_TICK, /* off | on: timer preemption inside a measured region */
	EL_CFG_COUNT
};

_Static_assert(EL_CFG_COUNT <= EL_CONFIG_MAX, "config items fit the report");

enum { EL_OFF = 0, EL_ON = 1 };
enum { EL_GLOBAL_NONE, EL_GLOBAL_ENTRY, EL_GLOBAL_ALL };
enum { EL_RET_IRET, EL_RET_SYSRET };
enum { EL_IRQRET_DIRECT, EL_IRQRET_TRAMPOLINE };
enum { EL_VSYSCALL_NATIVE, EL_VSYSCALL_EMULATE, EL_VSYSCALL_XONLY, EL_VSYSCALL_NONE };
enum { EL_VDSO_ON, EL_VDSO_OFF };
enum { EL_TSC_LFENCE, EL_TSC_LFENCE2, EL_TSC_RDTSCP, EL_TSC_NONE };
enum { EL_CLAMP_BRANCH, EL_CLAMP_CMOV };

struct el_config_desc {
	const char *key;             /* record key under guest.config */
	unsigned char def;           /* default value */
	const char *const *values;   /* value names, NULL-terminated */
};

static const char *const el_values_offon[] = {"off", "on", 0};
static const char *const el_values_onoff[] = {"on", "off", 0};

static const struct el_config_desc el_config[EL_CFG_COUNT] = {
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

/*
 * Command-line knobs.  A knob with a value (`pti=on`) sets its item to the
 * named value; a bare flag (`nopti`) sets it to flag_value.
 */
struct el_knob_desc {
	const char *name;
	enum el_config_item item;
	int flag_value; /* -1: takes "=value"; else a bare flag */
	const char *help;
};

static const struct el_knob_desc el_knobs[] = {
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

#define EL_KNOB_COUNT (sizeof(el_knobs) / sizeof(el_knobs[0]))

#endif
