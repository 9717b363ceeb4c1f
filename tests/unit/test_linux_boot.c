/*
 * Linux's 64-bit boot protocol in guest memory (vmm/linux_boot.c): the e820
 * map of our RAM layouts, the zero page (a bzImage's own setup header, a
 * vmlinux's synthesized one), command line, initrd, GDT and the identity
 * page tables, read back from guest memory as Linux reads them.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "linux_boot.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define LOAD 0x1000000ull

static char err[512];
static struct el_mem mem;
static struct linux_image li;
static struct linux_entry e;

#define BZ_LEN (2 * 512 + 4096)
static uint8_t bz[BZ_LEN];

static void bzimage_make(void)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	memset(bz, 0, sizeof(bz));
	bz[LX_SETUP_SECTS] = 1;
	v32 = 4096 / 16;
	memcpy(bz + LX_SYSSIZE, &v32, 4);
	v16 = 0xaa55;
	memcpy(bz + LX_BOOT_FLAG, &v16, 2);
	bz[LX_JUMP + 1] = 0x6a;
	v32 = LX_HDRS_MAGIC;
	memcpy(bz + LX_HEADER, &v32, 4);
	v16 = 0x020f;
	memcpy(bz + LX_VERSION, &v16, 2);
	bz[LX_LOADFLAGS] = LX_LOADED_HIGH;
	v32 = 0x7fffffff;
	memcpy(bz + LX_INITRD_ADDR_MAX, &v32, 4);
	v32 = 0x200000;
	memcpy(bz + LX_KERNEL_ALIGN, &v32, 4);
	bz[LX_RELOCATABLE] = 1;
	v16 = 1;
	memcpy(bz + LX_XLOADFLAGS, &v16, 2);
	v32 = 2047;
	memcpy(bz + LX_CMDLINE_SIZE, &v32, 4);
	v64 = LOAD;
	memcpy(bz + LX_PREF_ADDRESS, &v64, 8);
	v32 = 0x2000000;
	memcpy(bz + LX_INIT_SIZE, &v32, 4);
	bz[0x265] = 0x5a; /* a field we do not know is still copied */
}

static void setup(void)
{
	cr_assert_eq(el_mem_alloc(&mem, 256 * MiB, err, sizeof(err)), 0, "%s", err);
}

static void teardown(void)
{
	el_mem_free(&mem);
}

TestSuite(linux_boot, .init = setup, .fini = teardown);

static uint64_t rd(uint64_t gpa, unsigned size)
{
	uint64_t v = 0;
	const void *p = el_mem_gpa(&mem, gpa, size);

	cr_assert(p, "0x%llx not in RAM", (unsigned long long)gpa);
	memcpy(&v, p, size);
	return v;
}

/* The identity tables: where a linear address leads, by a walk of guest memory. */
static uint64_t walk(uint64_t va)
{
	uint64_t pml4e = rd(e.cr3 + ((va >> 39) & 511) * 8, 8);
	uint64_t pdpte, pde;

	cr_assert(pml4e & 1, "PML4E of 0x%llx not present", (unsigned long long)va);
	pdpte = rd((pml4e & ~0xfffull) + ((va >> 30) & 511) * 8, 8);
	cr_assert(pdpte & 1, "PDPTE of 0x%llx not present", (unsigned long long)va);
	pde = rd((pdpte & ~0xfffull) + ((va >> 21) & 511) * 8, 8);
	cr_assert(pde & 1, "PDE of 0x%llx not present", (unsigned long long)va);
	cr_assert(pde & 0x80, "a 2 MiB page");
	return (pde & ~0x1fffffull) + (va & 0x1fffff);
}

Test(linux_boot, e820_of_small_and_large_memory)
{
	struct lx_e820 map[8];
	struct el_mem m;
	unsigned n;

	el_mem_layout(&m, NULL, 256 * MiB);
	n = linux_e820(&m, map, 8);
	cr_assert_eq(n, 3);
	cr_expect(map[0].addr == 0 && map[0].size == 0x9fc00 && map[0].type == LX_E820_RAM);
	cr_expect(map[1].addr == 0x9fc00 && map[1].size == 0x100000 - 0x9fc00 &&
		  map[1].type == LX_E820_RESERVED);
	cr_expect(map[2].addr == 0x100000 && map[2].size == 255 * MiB &&
		  map[2].type == LX_E820_RAM);
	el_mem_layout(&m, NULL, 5 * GiB);
	n = linux_e820(&m, map, 8);
	cr_assert_eq(n, 4);
	cr_expect_eq(map[2].addr + map[2].size, 3 * GiB, "low RAM ends at the hole");
	cr_expect(map[3].addr == 4 * GiB && map[3].size == 2 * GiB && map[3].type == LX_E820_RAM);
	cr_expect_eq(linux_e820(&m, map, 2), 2, "never more than room");
}

Test(linux_boot, bzimage_zero_page)
{
	static const unsigned char initrd[5000] = {1, 2, 3};
	uint32_t rd_image, rd_size;

	bzimage_make();
	cr_assert_eq(linux_parse(bz, sizeof(bz), mem.size, sizeof(initrd), &li, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(linux_boot_build(&mem, bz, &li, "console=ttyS0 quiet", initrd,
				      sizeof(initrd), &e, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(e.rip, LOAD + 0x200);
	cr_expect_eq(e.rsi, LX_ZERO_PAGE_GPA);
	/* the file's header, as the protocol says, with the loader's fields on top */
	cr_expect_eq(memcmp(mem.base + LX_ZERO_PAGE_GPA + LX_SETUP_SECTS, bz + LX_SETUP_SECTS,
			    LX_TYPE_OF_LOADER - LX_SETUP_SECTS), 0);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + 0x265, 1), 0x5a);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_TYPE_OF_LOADER, 1), LX_LOADER_UNDEFINED);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_CMD_LINE_PTR, 4), LX_CMDLINE_GPA);
	cr_expect_str_eq((const char *)mem.base + LX_CMDLINE_GPA, "console=ttyS0 quiet");
	rd_image = (uint32_t)rd(LX_ZERO_PAGE_GPA + LX_RAMDISK_IMAGE, 4);
	rd_size = (uint32_t)rd(LX_ZERO_PAGE_GPA + LX_RAMDISK_SIZE, 4);
	cr_expect_eq(rd_size, sizeof(initrd));
	cr_expect_eq(rd_image % 4096, 0);
	cr_expect_geq(rd_image, LOAD + 0x2000000, "above where it decompresses");
	cr_expect_leq(rd_image + rd_size, mem.size);
	cr_expect_eq(memcmp(mem.base + rd_image, initrd, sizeof(initrd)), 0);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_BP_E820_ENTRIES, 1), 3);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_BP_E820_TABLE + 2 * 20, 8), 0x100000);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_BP_E820_TABLE + 2 * 20 + 16, 4), LX_E820_RAM);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_BP_SENTINEL, 1), 0);
}

Test(linux_boot, gdt_and_identity_tables)
{
	uint64_t code, data;

	bzimage_make();
	cr_assert_eq(linux_parse(bz, sizeof(bz), mem.size, 0, &li, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(linux_boot_build(&mem, bz, &li, "", NULL, 0, &e, err, sizeof(err)), 0, "%s",
		     err);
	code = rd(e.gdt_base + LX_SEL_CODE, 8);
	data = rd(e.gdt_base + LX_SEL_DATA, 8);
	cr_expect(code >> 53 & 1, "__BOOT_CS is 64-bit (L)");
	cr_expect_eq(code >> 40 & 0x9a, 0x9a, "present, code, readable");
	cr_expect_eq(data >> 40 & 0x92, 0x92, "present, data, writable");
	cr_expect_eq(data & 0xffff, 0xffff, "4 GiB limit");
	cr_expect_geq(e.gdt_limit, LX_SEL_TSS + 15);
	cr_expect_eq(walk(0), 0);
	cr_expect_eq(walk(LOAD + 0x200), LOAD + 0x200);
	cr_expect_eq(walk(0xbfffffffull), 0xbfffffffull);
	cr_expect_eq(walk(0xfee00000ull), 0xfee00000ull, "the LAPIC page too");
	cr_expect_lt(e.rsp, LX_PML4_GPA);
	cr_expect_gt(e.rsp, LX_ZERO_PAGE_GPA + LX_ZERO_PAGE_SIZE);
}

Test(linux_boot, vmlinux_gets_a_synthesized_header)
{
	li = (struct linux_image){.kind = LINUX_ELF64, .entry = LOAD, .lo = LOAD,
				  .hi = LOAD + 8 * MiB, .cmdline_max = LX_CMDLINE_DEFAULT,
				  .initrd_max = 3 * GiB};
	cr_assert_eq(linux_boot_build(&mem, NULL, &li, "quiet", NULL, 0, &e, err, sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_BOOT_FLAG, 2), 0xaa55);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_HEADER, 4), LX_HDRS_MAGIC);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_CMDLINE_SIZE, 4), LX_CMDLINE_DEFAULT - 1);
	cr_expect_eq(rd(LX_ZERO_PAGE_GPA + LX_RAMDISK_SIZE, 4), 0, "no initrd: none named");
	cr_expect_eq(e.rip, LOAD);
}

Test(linux_boot, refusals)
{
	static char line[3000];

	bzimage_make();
	cr_assert_eq(linux_parse(bz, sizeof(bz), mem.size, 0, &li, err, sizeof(err)), 0, "%s",
		     err);
	memset(line, 'x', sizeof(line) - 1);
	cr_expect_neq(linux_boot_build(&mem, bz, &li, line, NULL, 0, &e, err, sizeof(err)), 0);
	cr_expect(strstr(err, "takes at most 2047"), "%s", err);
	cr_expect_neq(linux_boot_build(&mem, bz, &li, "", bz, 250 * MiB, &e, err, sizeof(err)), 0);
	cr_expect(strstr(err, "raise --memory"), "%s", err);
	li.kind = LINUX_PVH;
	cr_expect_neq(linux_boot_build(&mem, bz, &li, "", NULL, 0, &e, err, sizeof(err)), 0);
}
