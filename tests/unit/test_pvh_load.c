/*
 * The PVH/ELF loader (vmm/pvh_load.c) on a hand-made kernel image and on
 * malformed variants of it: every rejection must name the problem.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <stddef.h>
#include <string.h>

#include "pvh_load.h"

#define MiB (1ull << 20)
#define LOAD_AT 0x100000ull

/* The smallest PVH kernel: ELF header, a PT_LOAD and a PT_NOTE, the note, 16 bytes of code. */
struct tiny_kernel {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	struct {
		Elf64_Nhdr nh;
		char name[4];
		uint32_t desc[2];
	} note;
	uint8_t code[16];
};

static struct tiny_kernel k;
static struct el_mem mem;
static struct pvh_image img;
static char err[512];

static void tiny_kernel_make(void)
{
	memset(&k, 0, sizeof(k));
	memcpy(k.eh.e_ident, ELFMAG, SELFMAG);
	k.eh.e_ident[EI_CLASS] = ELFCLASS64;
	k.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	k.eh.e_ident[EI_VERSION] = EV_CURRENT;
	k.eh.e_type = ET_EXEC;
	k.eh.e_machine = EM_X86_64;
	k.eh.e_version = EV_CURRENT;
	k.eh.e_entry = LOAD_AT;
	k.eh.e_phoff = offsetof(struct tiny_kernel, ph);
	k.eh.e_ehsize = sizeof(Elf64_Ehdr);
	k.eh.e_phentsize = sizeof(Elf64_Phdr);
	k.eh.e_phnum = 2;

	k.ph[0] = (Elf64_Phdr){.p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			       .p_offset = offsetof(struct tiny_kernel, code),
			       .p_vaddr = LOAD_AT, .p_paddr = LOAD_AT,
			       .p_filesz = sizeof(k.code), .p_memsz = 0x2000, .p_align = 16};
	k.ph[1] = (Elf64_Phdr){.p_type = PT_NOTE, .p_flags = PF_R,
			       .p_offset = offsetof(struct tiny_kernel, note),
			       .p_filesz = sizeof(Elf64_Nhdr) + 4 + 4, .p_align = 4};
	k.note.nh = (Elf64_Nhdr){.n_namesz = 4, .n_descsz = 4, .n_type = 18};
	memcpy(k.note.name, "Xen", 4);
	k.note.desc[0] = LOAD_AT;
	memset(k.code, 0xf4, sizeof(k.code)); /* hlt */
}

static void setup(void)
{
	tiny_kernel_make();
	cr_assert_eq(el_mem_alloc(&mem, 64 * MiB, err, sizeof(err)), 0, "%s", err);
}

static void teardown(void)
{
	el_mem_free(&mem);
}

TestSuite(pvh_load, .init = setup, .fini = teardown);

static void refused(size_t len, const char *needle)
{
	err[0] = '\0';
	cr_assert_neq(pvh_parse(&k, len, &mem, &img, err, sizeof(err)), 0,
		      "accepted an image that should say \"%s\"", needle);
	cr_assert(strstr(err, needle), "message \"%s\" does not name \"%s\"", err, needle);
}

Test(pvh_load, good_image_loads)
{
	uint8_t *ram;

	memset(mem.base + LOAD_AT, 0xaa, 0x3000);
	cr_assert_eq(pvh_load(&k, sizeof(k), &mem, &img, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(img.entry, LOAD_AT);
	cr_assert_eq(img.nr_segments, 1);
	cr_assert_eq(img.lo, LOAD_AT);
	cr_assert_eq(img.hi, LOAD_AT + 0x2000);
	ram = mem.base + LOAD_AT;
	cr_assert_eq(memcmp(ram, k.code, sizeof(k.code)), 0, "file bytes copied");
	for (size_t i = sizeof(k.code); i < 0x2000; i++)
		cr_assert_eq(ram[i], 0, "bss byte %zu not zeroed", i);
	cr_assert_eq(ram[0x2000], 0xaa, "wrote past memsz");
}

Test(pvh_load, eight_byte_note_accepted)
{
	k.note.nh.n_descsz = 8;
	k.note.desc[1] = 0;
	k.ph[1].p_filesz += 4;
	cr_assert_eq(pvh_parse(&k, sizeof(k), &mem, &img, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(img.entry, LOAD_AT);
}

Test(pvh_load, not_elf)
{
	memcpy(&k, "hello, world", 12);
	refused(sizeof(k), "not an ELF");
}

Test(pvh_load, truncated_header)
{
	err[0] = '\0';
	cr_assert_neq(pvh_parse(&k, 40, &mem, &img, err, sizeof(err)), 0);
	cr_assert(strstr(err, "truncated") || strstr(err, "not an ELF"), "%s", err);
}

Test(pvh_load, truncated_program_headers)
{
	err[0] = '\0';
	cr_assert_neq(pvh_parse(&k, offsetof(struct tiny_kernel, ph) + 20, &mem, &img, err,
				sizeof(err)), 0);
	cr_assert(strstr(err, "program header"), "%s", err);
}

Test(pvh_load, truncated_segment)
{
	refused(offsetof(struct tiny_kernel, code) + 4, "beyond the end");
}

Test(pvh_load, wrong_class)
{
	k.eh.e_ident[EI_CLASS] = ELFCLASS32;
	refused(sizeof(k), "ELFCLASS64");
}

Test(pvh_load, wrong_machine)
{
	k.eh.e_machine = EM_386;
	refused(sizeof(k), "EM_X86_64");
}

Test(pvh_load, wrong_type)
{
	k.eh.e_type = ET_DYN;
	refused(sizeof(k), "ET_EXEC");
}

Test(pvh_load, no_note_segment)
{
	k.ph[1].p_type = PT_NULL;
	refused(sizeof(k), "no PVH entry note");
}

Test(pvh_load, note_of_another_owner)
{
	memcpy(k.note.name, "GNU", 4);
	refused(sizeof(k), "no PVH entry note");
}

Test(pvh_load, note_with_odd_descriptor)
{
	k.note.nh.n_descsz = 2;
	refused(sizeof(k), "descriptor");
}

Test(pvh_load, note_beyond_file)
{
	k.ph[1].p_offset = 1 << 20;
	refused(sizeof(k), "PT_NOTE");
}

Test(pvh_load, segment_beyond_ram)
{
	k.ph[0].p_paddr = 64 * MiB - 0x1000;
	k.note.desc[0] = (uint32_t)k.ph[0].p_paddr;
	refused(sizeof(k), "outside guest RAM");
}

Test(pvh_load, segment_in_the_hole)
{
	k.ph[0].p_paddr = 0xfee00000;
	refused(sizeof(k), "outside guest RAM");
}

Test(pvh_load, segment_over_boot_info)
{
	k.ph[0].p_paddr = 0x1000;
	refused(sizeof(k), "boot-info");
}

Test(pvh_load, filesz_above_memsz)
{
	k.ph[0].p_memsz = 8;
	refused(sizeof(k), "exceeds memsz");
}

Test(pvh_load, offset_beyond_file)
{
	k.ph[0].p_offset = 1ull << 40;
	refused(sizeof(k), "beyond the end");
}

Test(pvh_load, offset_plus_size_wraps)
{
	k.ph[0].p_offset = 8;
	k.ph[0].p_filesz = UINT64_MAX - 4;
	k.ph[0].p_memsz = UINT64_MAX - 4;
	refused(sizeof(k), "beyond the end");
}

Test(pvh_load, no_load_segment)
{
	k.ph[0].p_type = PT_NULL;
	refused(sizeof(k), "no PT_LOAD");
}

Test(pvh_load, entry_outside_segments)
{
	k.note.desc[0] = 0x300000;
	refused(sizeof(k), "not inside any loaded");
}

Test(pvh_load, overlapping_segments)
{
	k.eh.e_phnum = 2;
	k.ph[1] = k.ph[0];
	k.ph[1].p_paddr += 0x1000;
	refused(sizeof(k), "overlaps");
}
