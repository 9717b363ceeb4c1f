/*
 * Effective configuration: one resolver per config item, each reading the
 * state the kernel actually set up (CR4, page tables), never the request.
 * A knob that needs a feature the vCPU lacks resolves to "unavailable".
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/entry/entry_config.h"
#include "arch/x86_64/x86.h"
#include "config.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/pti.h"
#include "mm/tlb.h"
#include "vdso/vdso.h"

typedef uint8_t config_resolver(unsigned item);

struct el_cmdline kernel_cmdline;
uint8_t config_effective[EL_CFG_COUNT];

static const char *const cmdline_errors[] = {
	[EL_CMDLINE_UNKNOWN_KNOB] = "unknown knob, ignored",
	[EL_CMDLINE_BAD_VALUE] = "bad value, ignored",
	[EL_CMDLINE_MISSING_VALUE] = "needs =value, ignored",
	[EL_CMDLINE_UNEXPECTED_VALUE] = "takes no value, ignored",
	[EL_CMDLINE_TOO_LONG] = "value too long, ignored",
};

static void print_values(const char *key, size_t keylen)
{
	size_t i;
	int v;

	for (i = 0; i < EL_KNOB_COUNT; i++) {
		const struct el_knob_desc *k = &el_knobs[i];

		if (k->flag_value >= 0 || strnlen(k->name, keylen + 1) != keylen ||
		    memcmp(k->name, key, keylen))
			continue;
		kprintf(" (values:");
		for (v = 0; el_config[k->item].values[v]; v++)
			kprintf(" %s", el_config[k->item].values[v]);
		kprintf(")");
	}
}

static void print_cmdline_error(void *ctx, enum el_cmdline_error err, const char *key,
				size_t keylen, const char *value, size_t valuelen)
{
	(void)ctx;
	kprintf("cmdline: '%.*s%s%.*s': %s", (int)keylen, key, value ? "=" : "", (int)valuelen,
		value ? value : "", cmdline_errors[err]);
	if (err == EL_CMDLINE_BAD_VALUE)
		print_values(key, keylen);
	kprintf("\n");
}

void config_parse_cmdline(const char *cmdline)
{
	el_cmdline_parse(cmdline, &kernel_cmdline, print_cmdline_error, 0);
}

/* on/off items that need a CPU feature: unavailable when requested but not set up. */
static uint8_t on_or_unavailable(bool set_up, unsigned item)
{
	if (set_up)
		return EL_ON;
	return kernel_cmdline.requested[item] == EL_ON ? EL_CONFIG_UNAVAILABLE : EL_OFF;
}

/* PTI needs no CPU feature: on exactly when asked (the user PGDs exist, mm/pti.c). */
static uint8_t resolve_pti(unsigned item)
{
	(void)item;
	return pti.on ? EL_ON : EL_OFF;
}

/* PCIDs serve PTI only: without PTI "off"; with it, "unavailable" when asked but not set up. */
static uint8_t resolve_pcid(unsigned item)
{
	if (!pti.on)
		return EL_OFF;
	return on_or_unavailable(read_cr4() & CR4_PCIDE, item);
}

/* INVPCID for user-PCID flushes: wanted with PTI and PCID asked; needs both CPUID bits. */
static uint8_t resolve_invpcid(unsigned item)
{
	if (!pti.on || kernel_cmdline.requested[EL_CFG_PCID] != EL_ON)
		return EL_OFF;
	return on_or_unavailable(tlb_invpcid_in_use(), item);
}

static uint8_t resolve_pge(unsigned item)
{
	(void)item;
	return (read_cr4() & CR4_PGE) ? EL_ON : EL_OFF;
}

/*
 * What mm/pti.c set up: without PGE nothing can be global ("none" if that
 * was asked, else unavailable); without PTI every kernel mapping is ("all").
 */
static uint8_t resolve_global(unsigned item)
{
	if (!pti.pge)
		return kernel_cmdline.requested[item] == EL_GLOBAL_NONE ? EL_GLOBAL_NONE
									 : EL_CONFIG_UNAVAILABLE;
	return pti.global;
}

/* ret, irq_return: what entry_config.c set up. */
static uint8_t resolve_entry(unsigned item)
{
	return entry_config(item);
}

/* vsyscall, vdso, vdso_tsc, vdso_clamp: what vdso_init() set up (needs it to have run). */
static uint8_t resolve_vdso(unsigned item)
{
	return vdso_config(item);
}

/* sched.region_tick: as asked (the timer needs nothing the vCPU may lack but an APIC). */
static uint8_t resolve_region_tick(unsigned item)
{
	return kernel_cmdline.requested[item] == EL_ON ? EL_ON : EL_OFF;
}

static config_resolver *const resolvers[EL_CFG_COUNT] = {
	[EL_CFG_PTI] = resolve_pti,
	[EL_CFG_PCID] = resolve_pcid,
	[EL_CFG_INVPCID] = resolve_invpcid,
	[EL_CFG_PGE] = resolve_pge,
	[EL_CFG_GLOBAL] = resolve_global,
	[EL_CFG_RET] = resolve_entry,
	[EL_CFG_IRQ_RETURN] = resolve_entry,
	[EL_CFG_VSYSCALL] = resolve_vdso,
	[EL_CFG_VDSO] = resolve_vdso,
	[EL_CFG_VDSO_TSC] = resolve_vdso,
	[EL_CFG_VDSO_CLAMP] = resolve_vdso,
	[EL_CFG_REGION_TICK] = resolve_region_tick,
};

void config_resolve(void)
{
	unsigned i;

	for (i = 0; i < EL_CFG_COUNT; i++)
		config_effective[i] = resolvers[i] ? resolvers[i](i) : EL_CONFIG_UNSET;
}

const char *config_value_name(unsigned item, uint8_t value)
{
	unsigned i;

	if (value == EL_CONFIG_UNAVAILABLE)
		return "unavailable";
	if (item >= EL_CFG_COUNT || value == EL_CONFIG_UNSET)
		return "unset";
	for (i = 0; el_config[item].values[i]; i++)
		if (i == value)
			return el_config[item].values[i];
	return "?";
}
