/*
 * CPU set-up: the control-register policy.
 *
 * A CR4 bit is set only when CPUID offers its feature and the command line
 * does not forbid it.  KVM enforces some of this itself (CR4.PCIDE #GPs
 * without CPUID PCID) but not all of it (it accepts CR4.PGE without CPUID
 * PGE), so the kernel keeps the discipline on its own.  Each bit is set
 * through write_cr4_safe(): a bit the CPU refuses anyway is reported and
 * left clear, so the report always shows what is really set.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/cpu_fault.h"
#include "arch/x86_64/x86.h"
#include "cpu_setup.h"
#include "lib/kprintf.h"

#define NO_KNOB -1

struct cpu_state_rule {
	uint64_t bit;
	const char *name;
	unsigned cap;      /* CPUID capability it needs */
	int knob_item;     /* config item that must not be "off", or NO_KNOB */
	int needs_item;    /* config item that must be "on", or NO_KNOB */
};

static const struct cpu_state_rule cr4_rules[] = {
	{CR4_PGE, "PGE", EL_FEAT_PGE, NO_KNOB, NO_KNOB},
	/* PCIDs serve page-table isolation only (mm/pcid.h): without PTI, PCID 0 alone. */
	{CR4_PCIDE, "PCIDE", EL_FEAT_PCID, EL_CFG_PCID, EL_CFG_PTI},
	{CR4_SMEP, "SMEP", EL_FEAT_SMEP, NO_KNOB, NO_KNOB},
	{CR4_SMAP, "SMAP", EL_FEAT_SMAP, NO_KNOB, NO_KNOB},
	{CR4_UMIP, "UMIP", EL_FEAT_UMIP, NO_KNOB, NO_KNOB},
	{CR4_FSGSBASE, "FSGSBASE", EL_FEAT_FSGSBASE, NO_KNOB, NO_KNOB},
	{CR4_OSFXSR, "OSFXSR", CAP_FXSR, NO_KNOB, NO_KNOB},
	{CR4_OSXMMEXCPT, "OSXMMEXCPT", CAP_SSE, NO_KNOB, NO_KNOB},
	/* XSAVE and XCR0 for the FPU image (arch/x86_64/fpu.c). */
	{CR4_OSXSAVE, "OSXSAVE", CAP_XSAVE, NO_KNOB, NO_KNOB},
};

static const struct cpu_state_rule efer_rules[] = {
	{EFER_NXE, "NXE", EL_FEAT_NX, NO_KNOB, NO_KNOB},
};

/* CR0: write-protect in ring 0, native FPU errors, WAIT honours TS; no emulation. */
#define CR0_SET (CR0_WP | CR0_NE | CR0_MP)
#define CR0_CLEAR (CR0_EM | CR0_TS | CR0_CD | CR0_NW)

struct cpu_setup_state cpu_state;

static bool rule_allows(const struct cpu_state_rule *r, const struct el_cmdline *cl)
{
	return cpu_has(r->cap) &&
	       (r->knob_item == NO_KNOB || cl->requested[r->knob_item] != EL_OFF) &&
	       (r->needs_item == NO_KNOB || cl->requested[r->needs_item] == EL_ON);
}

static void setup_cr4(const struct el_cmdline *cl)
{
	uint64_t cr4 = CR4_PAE;
	unsigned i;

	cpu_state.cr4_allowed = CR4_PAE;
	/* Start from PAE alone: long mode needs it, nothing else is ours yet. */
	write_cr4(cr4);
	for (i = 0; i < ARRAY_SIZE(cr4_rules); i++) {
		const struct cpu_state_rule *r = &cr4_rules[i];
		int vec;

		if (!rule_allows(r, cl))
			continue;
		cpu_state.cr4_allowed |= r->bit;
		vec = write_cr4_safe(cr4 | r->bit);
		if (vec) {
			cpu_state.cr4_refused |= r->bit;
			kprintf("cpu: CPUID offers CR4.%s but setting it raised %s; left clear\n",
				r->name, trap_mnemonic(vec));
			continue;
		}
		cr4 |= r->bit;
	}
}

static void setup_efer(void)
{
	uint64_t efer = rdmsr(MSR_EFER);
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(efer_rules); i++) {
		const struct cpu_state_rule *r = &efer_rules[i];
		int vec;

		if (!cpu_has(r->cap))
			continue;
		cpu_state.efer_allowed |= r->bit;
		vec = wrmsr_safe(MSR_EFER, efer | r->bit);
		if (vec) {
			cpu_state.efer_refused |= r->bit;
			kprintf("cpu: CPUID offers EFER.%s but setting it raised %s; left clear\n",
				r->name, trap_mnemonic(vec));
			continue;
		}
		efer |= r->bit;
	}
}

void cpu_setup(const struct el_cmdline *cl)
{
	write_cr0((read_cr0() | CR0_SET) & ~CR0_CLEAR);
	setup_cr4(cl);
	setup_efer();
}

struct bit_label {
	uint64_t bit;
	const char *name;
};

static const struct bit_label cr0_labels[] = {
	{CR0_PE, "PE"}, {CR0_MP, "MP"}, {CR0_EM, "EM"}, {CR0_TS, "TS"}, {CR0_ET, "ET"},
	{CR0_NE, "NE"}, {CR0_WP, "WP"}, {CR0_AM, "AM"}, {CR0_NW, "NW"}, {CR0_CD, "CD"},
	{CR0_PG, "PG"},
};

static const struct bit_label cr4_labels[] = {
	{CR4_VME, "VME"},       {CR4_PVI, "PVI"},           {CR4_TSD, "TSD"},
	{CR4_DE, "DE"},         {CR4_PSE, "PSE"},           {CR4_PAE, "PAE"},
	{CR4_MCE, "MCE"},       {CR4_PGE, "PGE"},           {CR4_PCE, "PCE"},
	{CR4_OSFXSR, "OSFXSR"}, {CR4_OSXMMEXCPT, "OSXMMEXCPT"}, {CR4_UMIP, "UMIP"},
	{CR4_LA57, "LA57"},     {CR4_VMXE, "VMXE"},         {CR4_SMXE, "SMXE"},
	{CR4_FSGSBASE, "FSGSBASE"}, {CR4_PCIDE, "PCIDE"},   {CR4_OSXSAVE, "OSXSAVE"},
	{CR4_SMEP, "SMEP"},     {CR4_SMAP, "SMAP"},         {CR4_PKE, "PKE"},
};

static const struct bit_label efer_labels[] = {
	{EFER_SCE, "SCE"}, {EFER_LME, "LME"}, {EFER_LMA, "LMA"}, {EFER_NXE, "NXE"},
};

static void print_bits(uint64_t v, const struct bit_label *labels, unsigned n)
{
	unsigned i;

	kprintf("%016lx [", v);
	for (i = 0; i < n; i++) {
		if (v & labels[i].bit) {
			kprintf(" %s", labels[i].name);
			v &= ~labels[i].bit;
		}
	}
	if (v)
		kprintf(" ?%lx", v);
	kprintf(" ]");
}

void cpu_print_cr0(uint64_t v)
{
	print_bits(v, cr0_labels, ARRAY_SIZE(cr0_labels));
}

void cpu_print_cr4(uint64_t v)
{
	print_bits(v, cr4_labels, ARRAY_SIZE(cr4_labels));
}

void cpu_print_efer(uint64_t v)
{
	print_bits(v, efer_labels, ARRAY_SIZE(efer_labels));
}
