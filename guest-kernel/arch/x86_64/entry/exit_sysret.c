/*
 * SYSRET after exceptions and interrupts: the boot-time half of
 * exit_sysret.S (exit_sysret.h).  Why each check of the exit is there: the
 * header of exit_sysret.S.  Here:
 *   - the trampoline's offset in the vDSO image (exit_sysret_tramp_offset);
 *   - the patches: exit_sysret.S marks STAC/CLAC (needed with CR4.SMAP) and
 *     the SS reload (needed on AMD and Hygon, whose SYSRET keeps SS's hidden
 *     attributes); where this CPU does not need them they become one NOP of
 *     their length, written once at boot through the direct map (the text
 *     mapping is read-only), before any user mode runs;
 *   - percpu.vdso_base: the address of the current mm's vdso_base, so exec,
 *     munmap and mremap of the vDSO are seen without hooks of their own;
 *     -> a zero without an mm or without EF_SYSRET (exit_sysret.S is then
 *     reached only for entry.irq_return=trampoline, and falls back);
 *   - the statistics line.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpufeature.h"
#include "arch/x86_64/entry/exit_sysret.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/panic.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "sys/uaccess_range.h"
#include "vdso/vdso.h"
#include "vdso/vdso_image.h"
#include "vdso/vdso_sym.h"
#include "vdso/vsysret.h"

/* exit_sysret.S spells TASK_SIZE_MAX out (XS_TASK_SIZE_MAX): the value it must be. */
_Static_assert(TASK_SIZE_MAX == 0x00007ffffffff000ull, "XS_TASK_SIZE_MAX in exit_sysret.S");
_Static_assert(VSYSRET_FRAME == 3 * 8, "exit_sysret.S stores RCX, R11, RIP (vsysret.h)");
_Static_assert(offsetof(struct mm, vdso_base) >= 0 && sizeof(((struct mm *)0)->vdso_base) == 8,
	       "exit_sysret.S loads percpu.vdso_base's target as a quadword");

static const char *const reason_names[XS_COUNT] = {
	[XS_TAKEN] = "sysret", [XS_NO_VDSO] = "no-vdso", [XS_SEGMENTS] = "segments",
	[XS_FLAGS] = "flags", [XS_RIP] = "rip", [XS_STACK] = "stack", [XS_FAULT] = "fault",
};

uint64_t exit_sysret_count[XS_COUNT];
uint64_t exit_sysret_tramp_offset;

/* What percpu.vdso_base points at while no mm is current: no vDSO. */
static uint64_t no_vdso;

struct patch_site {
	uint64_t addr, len, kind;
};
extern const struct patch_site exit_sysret_patches[], exit_sysret_patches_end[];

/* The NOP of each length 1-8 (the SDM's recommended multi-byte forms). */
static const uint8_t nops[9][8] = {
	{0},
	{0x90},
	{0x66, 0x90},
	{0x0f, 0x1f, 0x00},
	{0x0f, 0x1f, 0x40, 0x00},
	{0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	{0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};

static void patch_out(const struct patch_site *p)
{
	uint8_t *alias = phys_to_virt(image_to_phys((const void *)p->addr));

	if (p->len == 0 || p->len >= ARRAY_SIZE(nops))
		panic("exit_sysret: patch site %lx of %lu bytes", p->addr, p->len);
	memcpy(alias, nops[p->len], p->len);
}

bool exit_sysret_init(void)
{
	const struct vdso_image *img = vdso_image_mapped();
	bool smap = (read_cr4() & CR4_SMAP) != 0;
	bool reload_ss = !strcmp(boot_cpu.vendor, "AuthenticAMD") ||
			 !strcmp(boot_cpu.vendor, "HygonGenuine");
	const struct patch_site *p;

	exit_sysret_tramp_offset = img ? vdso_sym_find(img->start,
						       (uint64_t)(img->end - img->start),
						       VSYSRET_SYMBOL)
				       : 0;
	for (p = exit_sysret_patches; p < exit_sysret_patches_end; p++)
		if ((p->kind == XS_PATCH_SMAP && !smap) ||
		    (p->kind == XS_PATCH_RELOAD_SS && !reload_ss))
			patch_out(p);
	/* The stores went through the direct map: serialize before the text runs. */
	(void)cpuid(0, 0);
	return exit_sysret_tramp_offset != 0;
}

void exit_sysret_set_mm(struct mm *mm)
{
	cpu0.vdso_base = mm && exit_sysret_tramp_offset ? &mm->vdso_base : &no_vdso;
}

void exit_sysret_print_stats(void)
{
	unsigned i;

	kprintf("entry.ret=sysret: returns from exceptions and interrupts:");
	for (i = 0; i < XS_COUNT; i++)
		kprintf(" %s %lu", reason_names[i], exit_sysret_count[i]);
	kprintf("\n");
}
