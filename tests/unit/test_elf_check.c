/*
 * The guest kernel's ELF executable checks (common/elf_check.c):
 * synthetic images for each rule, and the real static programs of the build.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_check.h"

#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define PF_X 1
#define PF_W 2
#define PF_R 4

struct ph {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

static uint8_t img[16384];

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Header at 0, program headers right after it; returns the image size. */
static size_t make_elf(uint16_t type, uint64_t entry, const struct ph *phs, int n)
{
	memset(img, 0, sizeof(img));
	memcpy(img, "\177ELF", 4);
	img[4] = 2;
	img[5] = 1;
	img[6] = 1;
	put(img + 16, type, 2);
	put(img + 18, 62, 2);
	put(img + 20, 1, 4);
	put(img + 24, entry, 8);
	put(img + 32, 64, 8);
	put(img + 52, 64, 2);
	put(img + 54, 56, 2);
	put(img + 56, (uint64_t)n, 2);
	for (int i = 0; i < n; i++) {
		uint8_t *p = img + 64 + 56 * i;

		put(p, phs[i].type, 4);
		put(p + 4, phs[i].flags, 4);
		put(p + 8, phs[i].offset, 8);
		put(p + 16, phs[i].vaddr, 8);
		put(p + 24, phs[i].vaddr, 8);
		put(p + 32, phs[i].filesz, 8);
		put(p + 40, phs[i].memsz, 8);
		put(p + 48, phs[i].align, 8);
	}
	return 0x3000;
}

static const struct ph exec_phs[] = {
	{PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x1800, 0x1800, 0x1000},
	{PT_LOAD, PF_R | PF_W, 0x2000, 0x402000, 0x100, 0x3000, 0x1000},
};

static int check(size_t len, struct elf_info *info)
{
	return elf_check(img, len, info);
}

Test(elf_check, static_exec)
{
	struct elf_info info;
	uint64_t bias = 1;
	size_t len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);

	cr_assert_eq(check(len, &info), ELF_OK);
	cr_assert_eq(info.type, ELF_ET_EXEC);
	cr_assert_eq(info.nr_loads, 2);
	cr_assert_eq(info.lo, 0x400000);
	cr_assert_eq(info.hi, 0x405000, "hi is the page after the last segment's memsz");
	cr_assert_eq(info.phdr_vaddr, 0x400040, "headers found inside the first PT_LOAD");
	cr_assert_eq(info.phnum, 2);
	cr_assert_eq(info.loads[0].prot, ELF_PROT_R | ELF_PROT_X);
	cr_assert_eq(info.loads[1].prot, ELF_PROT_R | ELF_PROT_W);
	cr_assert_eq(info.loads[1].filesz, 0x100);
	cr_assert_eq(info.loads[1].memsz, 0x3000);
	cr_assert_eq(elf_place(&info, 0x7fff00000000ull, &bias), ELF_OK);
	cr_assert_eq(bias, 0);
}

Test(elf_check, static_pie_gets_a_bias)
{
	struct ph phs[] = {
		{PT_PHDR, PF_R, 64, 64, 3 * 56, 3 * 56, 8},
		{PT_LOAD, PF_R | PF_X, 0, 0, 0x1000, 0x1000, 0x1000},
		{PT_LOAD, PF_R | PF_W, 0x1000, 0x1000, 0x80, 0x2000, 0x1000},
	};
	struct elf_info info;
	uint64_t bias;

	cr_assert_eq(check(make_elf(ELF_ET_DYN, 0x10, phs, 3), &info), ELF_OK);
	cr_assert_eq(info.type, ELF_ET_DYN);
	cr_assert_eq(info.phdr_vaddr, 64, "PT_PHDR wins");
	cr_assert_eq(elf_place(&info, 0x7fff00000000ull, &bias), ELF_OK);
	cr_assert_eq(bias, ELF_DYN_BASE);
	cr_assert_eq(bias % 4096, 0);
}

Test(elf_check, static_pie_bias_keeps_large_alignment)
{
	struct ph phs[] = {{PT_LOAD, PF_R | PF_X, 0, 0, 0x1000, 0x1000, 0x200000}};
	struct elf_info info;
	uint64_t bias;

	cr_assert_eq(check(make_elf(ELF_ET_DYN, 0x10, phs, 1), &info), ELF_OK);
	cr_assert_eq(info.max_align, 0x200000);
	cr_assert_eq(elf_place(&info, 0x7fff00000000ull, &bias), ELF_OK);
	cr_assert_eq(bias % 0x200000, 0, "bias 0x%lx keeps p_align", (unsigned long)bias);
}

Test(elf_check, pt_interp_refused)
{
	struct ph phs[] = {
		{PT_INTERP, PF_R, 0x200, 0x400200, 0x1c, 0x1c, 1},
		exec_phs[0],
	};
	struct elf_info info;

	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, phs, 2), &info), ELF_ERR_INTERP);
	cr_assert_eq(check(make_elf(ELF_ET_DYN, 0x400100, phs, 2), &info), ELF_ERR_INTERP);
	cr_assert(strstr(elf_strerror(ELF_ERR_INTERP), "static"), "the message names the fix");
}

Test(elf_check, truncated)
{
	struct elf_info info;
	struct ph big = exec_phs[1];

	make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	cr_assert_eq(check(63, &info), ELF_ERR_SHORT);
	cr_assert_eq(check(64 + 56, &info), ELF_ERR_PHDRS, "second header cut off");
	cr_assert_eq(check(0x2000 + 0x80, &info), ELF_ERR_SEGMENT, "data past the end");
	big.filesz = 0x10000;
	big.memsz = 0x10000;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, (struct ph[]){exec_phs[0], big}, 2),
			   &info),
		     ELF_ERR_SEGMENT);
}

Test(elf_check, identity)
{
	struct elf_info info;
	size_t len;

	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	img[0] = 0x7e;
	cr_assert_eq(check(len, &info), ELF_ERR_MAGIC);
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	img[4] = 3; /* no such class */
	cr_assert_eq(check(len, &info), ELF_ERR_CLASS);
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	img[5] = 2;
	cr_assert_eq(check(len, &info), ELF_ERR_DATA);
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 18, 183, 2); /* EM_AARCH64 */
	cr_assert_eq(check(len, &info), ELF_ERR_MACHINE);
	len = make_elf(1 /* ET_REL */, 0x400100, exec_phs, 2);
	cr_assert_eq(check(len, &info), ELF_ERR_TYPE);
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 20, 2, 4);
	cr_assert_eq(check(len, &info), ELF_ERR_VERSION);
}

Test(elf_check, bad_program_headers)
{
	struct elf_info info;
	size_t len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);

	put(img + 54, 32, 2);
	cr_assert_eq(check(len, &info), ELF_ERR_PHDRS, "wrong phentsize");
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 0);
	cr_assert_eq(check(len, &info), ELF_ERR_PHDRS, "no headers");
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 32, 0xffffffffffffff00ull, 8);
	cr_assert_eq(check(len, &info), ELF_ERR_PHDRS, "phoff far outside");
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 56, 0xffff, 2);
	cr_assert_eq(check(len, &info), ELF_ERR_PHDRS, "PN_XNUM");
}

Test(elf_check, bad_segments)
{
	struct elf_info info;
	struct ph p[2] = {exec_phs[0], exec_phs[1]};

	p[1].filesz = 0x4000;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, p, 2), &info), ELF_ERR_SEGMENT,
		     "filesz > memsz");
	p[1] = exec_phs[1];
	p[1].vaddr = 0x402010;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, p, 2), &info), ELF_ERR_SEGMENT,
		     "vaddr and offset disagree modulo the page");
	p[1] = exec_phs[1];
	p[1].align = 0x3000;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, p, 2), &info), ELF_ERR_SEGMENT,
		     "alignment not a power of two");
	p[1] = exec_phs[1];
	p[1].vaddr = 0x401000;
	p[1].offset = 0x1000;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, p, 2), &info), ELF_ERR_OVERLAP,
		     "second segment inside the first one's pages");
	p[1] = exec_phs[1];
	p[1].vaddr = 0xfffffffffffff000ull;
	p[1].offset = 0;
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, p, 2), &info), ELF_ERR_RANGE,
		     "wraps the address space");
}

Test(elf_check, entry_outside)
{
	struct elf_info info;

	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x800000, exec_phs, 2), &info), ELF_ERR_ENTRY);
}

Test(elf_check, placement_range)
{
	struct ph low = {PT_LOAD, PF_R | PF_X, 0, 0x1000, 0x100, 0x100, 0x1000};
	struct elf_info info;
	uint64_t bias;

	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x1000, &low, 1), &info), ELF_OK);
	cr_assert_eq(elf_place(&info, 0x7fff00000000ull, &bias), ELF_ERR_RANGE, "below 64 KiB");
	cr_assert_eq(check(make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2), &info), ELF_OK);
	cr_assert_eq(elf_place(&info, 0x404000, &bias), ELF_ERR_RANGE, "above the limit");
}

Test(elf_check, every_error_has_a_message)
{
	for (int e = 0; e < ELF_ERR_COUNT; e++)
		cr_assert(strcmp(elf_strerror(e), "unknown error"), "error %d", e);
	cr_assert_str_eq(elf_strerror(ELF_ERR_COUNT), "unknown error");
}

/* The static musl programs of this build, if they were built. */
Test(elf_check, built_guest_programs)
{
	static const char *const names[] = {"usercheck", "regcheck", "segv", "getpid", 0};
	int checked = 0;

	for (int i = 0; names[i]; i++) {
		char path[512];
		FILE *f;
		uint8_t *buf;
		long n;
		struct elf_info info;
		uint64_t bias;

		snprintf(path, sizeof(path), "%s/guest/%s", EL_BINARY_DIR, names[i]);
		f = fopen(path, "rb");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		buf = malloc((size_t)n);
		cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		cr_assert_eq(elf_check(buf, (size_t)n, &info), ELF_OK, "%s: %s", path,
			     elf_strerror(elf_check(buf, (size_t)n, &info)));
		cr_assert_eq(elf_place(&info, 0x7fff00000000ull, &bias), ELF_OK, "%s", path);
		cr_assert_neq(info.phdr_vaddr, 0);
		free(buf);
		checked++;
	}
	if (!checked)
		cr_skip_test("no guest programs in %s/guest", EL_BINARY_DIR);
}

/* An ELF32 i386 image: the 32-bit header and program headers (Elf32_Ehdr, Elf32_Phdr). */
static size_t make_elf32(uint16_t type, uint64_t entry, const struct ph *phs, int n)
{
	memset(img, 0, sizeof(img));
	memcpy(img, "\177ELF", 4);
	img[4] = 1;
	img[5] = 1;
	img[6] = 1;
	put(img + 16, type, 2);
	put(img + 18, 3, 2);
	put(img + 20, 1, 4);
	put(img + 24, entry, 4);
	put(img + 28, 52, 4);
	put(img + 40, 52, 2);
	put(img + 42, 32, 2);
	put(img + 44, (uint64_t)n, 2);
	for (int i = 0; i < n; i++) {
		uint8_t *p = img + 52 + 32 * i;

		put(p, phs[i].type, 4);
		put(p + 4, phs[i].offset, 4);
		put(p + 8, phs[i].vaddr, 4);
		put(p + 12, phs[i].vaddr, 4);
		put(p + 16, phs[i].filesz, 4);
		put(p + 20, phs[i].memsz, 4);
		put(p + 24, phs[i].flags, 4);
		put(p + 28, phs[i].align, 4);
	}
	return 0x3000;
}

Test(elf_check, i386_static_exec)
{
	static const struct ph phs[] = {
		{PT_LOAD, PF_R | PF_X, 0, 0x8048000, 0x1800, 0x1800, 0x1000},
		{PT_LOAD, PF_R | PF_W, 0x2000, 0x804a000, 0x100, 0x3000, 0x1000},
	};
	struct elf_info info;
	uint64_t bias;
	size_t len = make_elf32(ELF_ET_EXEC, 0x8048100, phs, 2);

	cr_assert_eq(check(len, &info), ELF_OK);
	cr_assert(info.is32);
	cr_assert_eq(info.entry, 0x8048100);
	cr_assert_eq(info.nr_loads, 2);
	cr_assert_eq(info.loads[1].vaddr, 0x804a000);
	cr_assert_eq(info.loads[1].filesz, 0x100);
	cr_assert_eq(info.loads[1].memsz, 0x3000);
	cr_assert_eq(info.loads[1].prot, ELF_PROT_R | ELF_PROT_W);
	cr_assert_eq(info.lo, 0x8048000);
	cr_assert_eq(info.hi, 0x804d000);
	cr_assert_eq(info.phdr_vaddr, 0x8048000 + 52, "the headers in the first segment");
	cr_assert_eq(elf_place(&info, ELF32_TASK_SIZE, &bias), ELF_OK);
	cr_assert_eq(bias, 0);
	/* A static-pie goes where Linux puts an ia32 ET_DYN. */
	len = make_elf32(ELF_ET_DYN, 0x100, (const struct ph[]){{PT_LOAD, PF_R | PF_X, 0, 0,
								   0x1800, 0x1800, 0x1000}}, 1);
	cr_assert_eq(check(len, &info), ELF_OK);
	cr_assert_eq(elf_place(&info, ELF32_TASK_SIZE, &bias), ELF_OK);
	cr_assert_eq(bias, ELF32_DYN_BASE);
}

Test(elf_check, class_and_machine_go_together)
{
	struct elf_info info;
	size_t len = make_elf32(ELF_ET_EXEC, 0x400100, exec_phs, 2);

	put(img + 18, 62, 2); /* ELFCLASS32 EM_X86_64: x32, not run here */
	cr_assert_eq(check(len, &info), ELF_ERR_CLASS);
	len = make_elf(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 18, 3, 2); /* ELFCLASS64 EM_386 */
	cr_assert_eq(check(len, &info), ELF_ERR_CLASS);
	len = make_elf32(ELF_ET_EXEC, 0x400100, exec_phs, 2);
	put(img + 42, 56, 2); /* a 64-bit program header size in a 32-bit file */
	cr_assert_eq(check(len, &info), ELF_ERR_PHDRS);
	cr_assert_eq(check(40, &info), ELF_ERR_SHORT);
}
