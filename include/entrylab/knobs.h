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

#include <stddef.h>

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

/* The items, their defaults and value names (common/abi_tables.c). */
extern const struct el_config_desc el_config[EL_CFG_COUNT];

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

/* The knobs (common/abi_tables.c), el_knob_count of them. */
extern const struct el_knob_desc el_knobs[];
extern const size_t el_knob_count;
#define EL_KNOB_COUNT el_knob_count

#endif
