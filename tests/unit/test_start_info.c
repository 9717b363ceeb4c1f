/* PVH start_info layout and the guest command line (vmm/pvh_start.c): no KVM needed. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "entrylab/pvh.h"
#include "pvh_start.h"

#define MiB (1ull << 20)

static struct el_mem mem;
static char err[256];

static void setup(void)
{
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
}

static void teardown(void)
{
	el_mem_free(&mem);
}

TestSuite(start_info, .init = setup, .fini = teardown);

Test(start_info, header_memmap_and_cmdline)
{
	uint64_t gpa = pvh_start_build(&mem, "pti=on nopcid", 0x200000, NULL, 0, err,
				       sizeof(err));
	const struct pvh_start_info *si;
	const struct pvh_memmap_entry *map;

	cr_assert_eq(gpa, EL_START_INFO_GPA, "%s", err);
	si = el_mem_gpa(&mem, gpa, sizeof(*si));
	cr_assert_eq(si->magic, PVH_START_MAGIC);
	cr_assert_eq(si->version, 1);
	cr_assert_eq(si->nr_modules, 0);
	cr_assert_eq(si->modlist_paddr, 0);
	cr_assert_eq(si->rsdp_paddr, 0);
	cr_assert_eq(si->reserved, 0);
	cr_assert_str_eq((const char *)el_mem_gpa(&mem, si->cmdline_paddr, 14), "pti=on nopcid");
	cr_assert_eq(si->memmap_entries, 1);
	map = el_mem_gpa(&mem, si->memmap_paddr, sizeof(*map));
	cr_assert_eq(map[0].addr, 0);
	cr_assert_eq(map[0].size, 64 * MiB);
	cr_assert_eq(map[0].type, PVH_MEM_RAM);
}

Test(start_info, boot_info_stays_below_the_limit)
{
	cr_assert_lt(EL_START_INFO_GPA + sizeof(struct pvh_start_info), EL_MODLIST_GPA + 1);
	cr_assert_leq(EL_MODLIST_GPA + sizeof(struct pvh_module), EL_MEMMAP_GPA);
	cr_assert_leq(EL_MEMMAP_GPA + EL_MEMMAP_MAX * sizeof(struct pvh_memmap_entry),
		      EL_BOOT_GDT_GPA);
	cr_assert_leq(EL_BOOT_GDT_GPA + EL_BOOT_GDT_ENTRIES * 8, EL_CMDLINE_GPA);
	cr_assert_leq(EL_CMDLINE_GPA + EL_CMDLINE_MAX, EL_BOOT_AREA_END);
}

Test(start_info, boot_gdt_matches_entry_selectors)
{
	const uint64_t *gdt;

	cr_assert_neq(pvh_start_build(&mem, "", 0x200000, NULL, 0, err, sizeof(err)), 0);
	gdt = el_mem_gpa(&mem, EL_BOOT_GDT_GPA, EL_BOOT_GDT_ENTRIES * 8);
	cr_assert_eq(gdt[0], 0);
	cr_assert_eq((gdt[EL_BOOT_SEL_CODE / 8] >> 40) & 0xff, 0x9b, "present code, accessed");
	cr_assert_eq((gdt[EL_BOOT_SEL_DATA / 8] >> 40) & 0xff, 0x93, "present data, accessed");
	cr_assert_eq((gdt[EL_BOOT_SEL_TSS / 8] >> 40) & 0xff, 0x8b, "busy 32-bit TSS");
	cr_assert_eq(gdt[EL_BOOT_SEL_TSS / 8] & 0xffff, 0x67, "TSS limit");
}

Test(start_info, initrd_is_module_0_at_the_top)
{
	static unsigned char initrd[10000];
	const struct pvh_start_info *si;
	const struct pvh_module *mod;

	memset(initrd, 0x5a, sizeof(initrd));
	cr_assert_neq(pvh_start_build(&mem, "", 0x200000, initrd, sizeof(initrd), err,
				      sizeof(err)), 0, "%s", err);
	si = el_mem_gpa(&mem, EL_START_INFO_GPA, sizeof(*si));
	cr_assert_eq(si->nr_modules, 1);
	mod = el_mem_gpa(&mem, si->modlist_paddr, sizeof(*mod));
	cr_assert_eq(mod->size, sizeof(initrd));
	cr_assert_eq(mod->paddr % 4096, 0, "page aligned");
	cr_assert_leq(mod->paddr + mod->size, 64 * MiB);
	cr_assert_gt(mod->paddr + 4096 + mod->size, 64 * MiB, "at the top of RAM");
	cr_assert_geq(mod->paddr, 0x200000);
	cr_assert_eq(mod->cmdline_paddr, 0);
	cr_assert_eq(memcmp(el_mem_gpa(&mem, mod->paddr, mod->size), initrd, sizeof(initrd)), 0);
}

Test(start_info, initrd_that_does_not_fit_is_refused)
{
	static unsigned char initrd[63 * MiB];

	cr_assert_eq(pvh_start_build(&mem, "", 0x200000, initrd, sizeof(initrd), err,
				     sizeof(err)), 0);
	cr_assert(strstr(err, "initrd") && strstr(err, "raise --memory"), "%s", err);
}

Test(start_info, cmdline_too_long_is_refused)
{
	static char cl[EL_CMDLINE_MAX + 10];

	memset(cl, 'a', sizeof(cl) - 1);
	cr_assert_eq(pvh_start_build(&mem, cl, 0x200000, NULL, 0, err, sizeof(err)), 0);
	cr_assert(strstr(err, "shorten --append"), "%s", err);
}

/* out is prefix + the wall clock in ns, close to now (whole seconds compared). */
static void assert_composed(const char *out, const char *prefix)
{
	struct timespec now;
	unsigned long long ns;
	char *end;

	cr_assert_eq(strncmp(out, prefix, strlen(prefix)), 0, "\"%s\" starts with \"%s\"", out,
		     prefix);
	ns = strtoull(out + strlen(prefix), &end, 10);
	cr_assert_eq(*end, '\0', "el.epoch_ns ends the line: \"%s\"", out);
	clock_gettime(CLOCK_REALTIME, &now);
	cr_assert_lt(llabs((long long)(ns / 1000000000u) - (long long)now.tv_sec), 2,
		     "el.epoch_ns is now: %llu", ns);
}

Test(start_info, cmdline_compose)
{
	char out[EL_CMDLINE_MAX];
	static char longer[EL_CMDLINE_MAX];

	cr_assert_eq(pvh_cmdline_compose(out, sizeof(out), "pti=on", 2100000, err, sizeof(err)), 0);
	assert_composed(out, "pti=on el.tsc_khz=2100000 el.epoch_ns=");
	cr_assert_eq(pvh_cmdline_compose(out, sizeof(out), "", 2100000, err, sizeof(err)), 0);
	assert_composed(out, "el.tsc_khz=2100000 el.epoch_ns=");
	cr_assert_eq(pvh_cmdline_compose(out, sizeof(out), "nopti", 0, err, sizeof(err)), 0);
	assert_composed(out, "nopti el.epoch_ns=");
	cr_assert_eq(pvh_cmdline_compose(out, sizeof(out), NULL, 0, err, sizeof(err)), 0);
	assert_composed(out, "el.epoch_ns=");
	memset(longer, 'x', sizeof(longer) - 10);
	cr_assert_neq(pvh_cmdline_compose(out, sizeof(out), longer, 2100000, err, sizeof(err)), 0);
	cr_assert(strstr(err, "shorten --append"), "%s", err);
}
