/*
 * Linux kernel files (vmm/linux_load.c): a hand-made vmlinux (with and
 * without the PVH note) and bzImage, and hostile variants of each: every
 * refusal names the problem, nothing outside the file is read.  Debian's
 * own vmlinux and bzImage, when the build fetched them (build/nested/).
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "linux_load.h"

#define MiB (1ull << 20)
#define LOAD 0x1000000ull /* where Linux links itself (16 MiB) */

static char err[512];
static struct linux_image li;

/* ---- a vmlinux: ELF header, a PT_LOAD at 16 MiB, an optional PVH note ---- */
static struct vmlinux {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	struct {
		Elf64_Nhdr nh;
		char name[4];
		uint32_t desc[2];
	} note;
	uint8_t text[64];
} v;

static void vmlinux_make(bool note)
{
	memset(&v, 0, sizeof(v));
	memcpy(v.eh.e_ident, ELFMAG, SELFMAG);
	v.eh.e_ident[EI_CLASS] = ELFCLASS64;
	v.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	v.eh.e_ident[EI_VERSION] = EV_CURRENT;
	v.eh.e_type = ET_EXEC;
	v.eh.e_machine = EM_X86_64;
	v.eh.e_version = EV_CURRENT;
	v.eh.e_entry = LOAD; /* startup_64's physical address, as vmlinux.lds links it */
	v.eh.e_phoff = offsetof(struct vmlinux, ph);
	v.eh.e_ehsize = sizeof(Elf64_Ehdr);
	v.eh.e_phentsize = sizeof(Elf64_Phdr);
	v.eh.e_phnum = note ? 2 : 1;
	v.ph[0] = (Elf64_Phdr){.p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			       .p_offset = offsetof(struct vmlinux, text),
			       .p_vaddr = 0xffffffff81000000ull, .p_paddr = LOAD,
			       .p_filesz = sizeof(v.text), .p_memsz = 2 * MiB, .p_align = 16};
	v.ph[1] = (Elf64_Phdr){.p_type = PT_NOTE, .p_flags = PF_R,
			       .p_offset = offsetof(struct vmlinux, note),
			       .p_filesz = sizeof(Elf64_Nhdr) + 4 + 8, .p_align = 4};
	v.note.nh = (Elf64_Nhdr){.n_namesz = 4, .n_descsz = 8, .n_type = 18};
	memcpy(v.note.name, "Xen", 4);
	v.note.desc[0] = LOAD + 0x20;
	memcpy(v.text, "Linux version 6.1.0-test (me@host) #1 SMP", 41);
}

/* ---- a bzImage: one setup sector, a 4 KiB protected-mode part ---- */
#define BZ_SETUP 1u
#define BZ_PM 4096u
#define BZ_LEN ((BZ_SETUP + 1) * 512 + BZ_PM)
static uint8_t bz[BZ_LEN];

static void w16(size_t off, uint16_t x)
{
	memcpy(bz + off, &x, 2);
}

static void w32(size_t off, uint32_t x)
{
	memcpy(bz + off, &x, 4);
}

static void w64(size_t off, uint64_t x)
{
	memcpy(bz + off, &x, 8);
}

static void bzimage_make(void)
{
	memset(bz, 0, sizeof(bz));
	bz[LX_SETUP_SECTS] = BZ_SETUP;
	w32(LX_SYSSIZE, BZ_PM / 16);
	w16(LX_BOOT_FLAG, 0xaa55);
	bz[LX_JUMP] = 0xeb;
	bz[LX_JUMP + 1] = 0x6a; /* the header ends at 0x26c, as Debian's */
	w32(LX_HEADER, LX_HDRS_MAGIC);
	w16(LX_VERSION, 0x020f);
	w16(LX_KERNEL_VERSION, 0x100);
	memcpy(bz + 0x300, "6.1.0-bz (me@host) #1", 21);
	bz[LX_LOADFLAGS] = LX_LOADED_HIGH;
	w32(LX_INITRD_ADDR_MAX, 0x7fffffff);
	w32(LX_KERNEL_ALIGN, 0x200000);
	bz[LX_RELOCATABLE] = 1;
	w16(LX_XLOADFLAGS, 0x7f);
	w32(LX_CMDLINE_SIZE, 2047);
	w64(LX_PREF_ADDRESS, LOAD);
	w32(LX_INIT_SIZE, 0x3000000);
	memset(bz + (BZ_SETUP + 1) * 512, 0x90, BZ_PM);
}

static void refused(const void *img, size_t len, uint64_t mem, size_t initrd, const char *needle)
{
	cr_assert_neq(linux_parse(img, len, mem, initrd, &li, err, sizeof(err)), 0,
		      "accepted; expected a refusal naming \"%s\"", needle);
	cr_expect(strstr(err, needle), "message \"%s\" does not name \"%s\"", err, needle);
}

static void accepted(const void *img, size_t len, uint64_t mem, size_t initrd)
{
	cr_assert_eq(linux_parse(img, len, mem, initrd, &li, err, sizeof(err)), 0, "%s", err);
}

TestSuite(linux_load);

Test(linux_load, vmlinux_with_the_pvh_note_boots_by_it)
{
	char rel[65];

	vmlinux_make(true);
	accepted(&v, sizeof(v), 256 * MiB, 1 * MiB);
	cr_expect_eq(li.kind, LINUX_PVH);
	cr_expect_eq(li.entry, LOAD + 0x20);
	cr_expect_eq(li.lo, LOAD);
	cr_expect_eq(li.hi, LOAD + 2 * MiB);
	cr_expect_eq(li.cmdline_max, LX_CMDLINE_DEFAULT);
	linux_release(&v, &li, rel, sizeof(rel));
	cr_expect_str_eq(rel, "6.1.0-test");
}

Test(linux_load, vmlinux_without_the_note_boots_by_the_64bit_protocol)
{
	vmlinux_make(false);
	accepted(&v, sizeof(v), 256 * MiB, 0);
	cr_expect_eq(li.kind, LINUX_ELF64);
	cr_expect_eq(li.entry, LOAD);
}

Test(linux_load, vmlinux_with_a_virtual_entry_is_refused)
{
	vmlinux_make(false);
	v.eh.e_entry = 0xffffffff81000000ull;
	refused(&v, sizeof(v), 256 * MiB, 0, "is not the physical address");
}

Test(linux_load, vmlinux_below_1mib_is_refused)
{
	vmlinux_make(false);
	v.ph[0].p_paddr = 0x10000;
	v.eh.e_entry = 0x10000;
	refused(&v, sizeof(v), 256 * MiB, 0, "below 1 MiB");
}

Test(linux_load, elf32_is_a_32bit_kernel)
{
	vmlinux_make(true);
	v.eh.e_ident[EI_CLASS] = ELFCLASS32;
	refused(&v, sizeof(v), 256 * MiB, 0, "32-bit kernel (ELFCLASS32)");
}

Test(linux_load, truncated_vmlinux_is_refused)
{
	vmlinux_make(true);
	refused(&v, offsetof(struct vmlinux, text) + 8, 256 * MiB, 0, "truncated");
	refused(&v, 40, 256 * MiB, 0, "not a bootable vmlinux");
}

Test(linux_load, oversize_segment_is_refused)
{
	vmlinux_make(true);
	v.ph[0].p_memsz = 4ull << 30;
	refused(&v, sizeof(v), 256 * MiB, 0, "outside guest RAM");
}

Test(linux_load, vmlinux_larger_than_memory_is_refused)
{
	vmlinux_make(true);
	v.ph[0].p_memsz = 60 * MiB;
	refused(&v, sizeof(v), 64 * MiB, 0, "raise --memory");
}

Test(linux_load, initrd_that_does_not_fit_is_refused)
{
	vmlinux_make(true);
	accepted(&v, sizeof(v), 32 * MiB, 8 * MiB);
	refused(&v, sizeof(v), 32 * MiB, 15 * MiB, "do not both fit");
}

Test(linux_load, neither_elf_nor_bzimage)
{
	static const char text[1024] = "#!/bin/sh\necho not a kernel\n";

	refused(text, sizeof(text), 256 * MiB, 0, "neither an ELF vmlinux");
	refused(text, 3, 256 * MiB, 0, "neither an ELF vmlinux");
	refused(text, 0, 256 * MiB, 0, "neither an ELF vmlinux");
}

Test(linux_load, bzimage_boots_at_pref_address_plus_0x200)
{
	char rel[65];

	bzimage_make();
	accepted(bz, sizeof(bz), 256 * MiB, 1 * MiB);
	cr_expect_eq(li.kind, LINUX_BZIMAGE);
	cr_expect_eq(li.load, LOAD);
	cr_expect_eq(li.entry, LOAD + 0x200);
	cr_expect_eq(li.hi, LOAD + 0x3000000); /* init_size: where it decompresses */
	cr_expect_eq(li.pm_offset, (BZ_SETUP + 1) * 512);
	cr_expect_eq(li.pm_len, BZ_PM);
	cr_expect_eq(li.cmdline_max, 2048);
	cr_expect_eq(li.initrd_max, 0x80000000ull);
	cr_expect_eq(li.hdr_end, 0x26c);
	linux_release(bz, &li, rel, sizeof(rel));
	cr_expect_str_eq(rel, "6.1.0-bz");
}

Test(linux_load, bzimage_without_pref_address_loads_at_1mib)
{
	bzimage_make();
	w64(LX_PREF_ADDRESS, 0);
	bz[LX_RELOCATABLE] = 0;
	accepted(bz, sizeof(bz), 256 * MiB, 0);
	cr_expect_eq(li.load, 0x100000);
}

Test(linux_load, bzimage_hostile_headers)
{
	bzimage_make();
	refused(bz, 0x206, 256 * MiB, 0, "cut short");
	bzimage_make();
	refused(bz, 0x260, 256 * MiB, 0, "cut short");
	bzimage_make();
	w16(LX_VERSION, 0x020b);
	refused(bz, sizeof(bz), 256 * MiB, 0, "older than 2.12");
	bzimage_make();
	w16(LX_XLOADFLAGS, 0x7e);
	refused(bz, sizeof(bz), 256 * MiB, 0, "32-bit kernel");
	bzimage_make();
	bz[LX_LOADFLAGS] = 0;
	refused(bz, sizeof(bz), 256 * MiB, 0, "zImage");
	bzimage_make();
	w16(LX_BOOT_FLAG, 0x1234);
	refused(bz, sizeof(bz), 256 * MiB, 0, "boot flag");
	bzimage_make();
	bz[LX_JUMP + 1] = 0x10;
	refused(bz, sizeof(bz), 256 * MiB, 0, "corrupt header");
}

Test(linux_load, bzimage_fields_out_of_range)
{
	bzimage_make();
	bz[LX_SETUP_SECTS] = 200; /* setup beyond the file */
	refused(bz, sizeof(bz), 256 * MiB, 0, "setup sectors");
	bzimage_make();
	w32(LX_SYSSIZE, 0x10000000);
	refused(bz, sizeof(bz), 256 * MiB, 0, "truncated");
	bzimage_make();
	w32(LX_KERNEL_ALIGN, 0x300000);
	refused(bz, sizeof(bz), 256 * MiB, 0, "power of two");
	bzimage_make();
	bz[LX_RELOCATABLE] = 0;
	w64(LX_PREF_ADDRESS, 0x80000);
	refused(bz, sizeof(bz), 256 * MiB, 0, "outside [1 MiB, 3 GiB)");
	bzimage_make();
	w64(LX_PREF_ADDRESS, 0xffffffffffe00000ull);
	refused(bz, sizeof(bz), 256 * MiB, 0, "outside [1 MiB, 3 GiB)");
	bzimage_make();
	w32(LX_INIT_SIZE, 0);
	refused(bz, sizeof(bz), 256 * MiB, 0, "init_size is 0");
	bzimage_make();
	w32(LX_INIT_SIZE, 0xfff00000u);
	refused(bz, sizeof(bz), 256 * MiB, 0, "past 3 GiB");
	bzimage_make();
	refused(bz, (BZ_SETUP + 1) * 512 + 0x100, 256 * MiB, 0, "truncated");
	bzimage_make();
	refused(bz, sizeof(bz), 32 * MiB, 0, "raise --memory");
}

Test(linux_load, load_copies_what_the_parse_placed)
{
	struct el_mem mem;

	cr_assert_eq(el_mem_alloc(&mem, 128 * MiB, err, sizeof(err)), 0, "%s", err);
	bzimage_make();
	accepted(bz, sizeof(bz), 128 * MiB, 0);
	cr_assert_eq(linux_load(bz, sizeof(bz), &li, &mem, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(memcmp(mem.base + LOAD, bz + (BZ_SETUP + 1) * 512, BZ_PM), 0);
	vmlinux_make(true);
	accepted(&v, sizeof(v), 128 * MiB, 0);
	cr_assert_eq(linux_load(&v, sizeof(v), &li, &mem, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(memcmp(mem.base + LOAD, v.text, sizeof(v.text)), 0);
	cr_expect_eq(mem.base[LOAD + sizeof(v.text)], 0, "bss zeroed");
	el_mem_free(&mem);
}

Test(linux_load, initrd_goes_on_top_below_its_limit)
{
	struct el_mem mem;

	el_mem_layout(&mem, NULL, 256 * MiB);
	bzimage_make();
	accepted(bz, sizeof(bz), 256 * MiB, 0);
	cr_expect_eq(linux_initrd_gpa(&li, &mem, 0x1800, 0), 256 * MiB - 0x2000);
	w32(LX_INITRD_ADDR_MAX, 0x7ffffff); /* 128 MiB */
	accepted(bz, sizeof(bz), 256 * MiB, 0);
	cr_expect_eq(linux_initrd_gpa(&li, &mem, 0x1000, 0), 128 * MiB - 0x1000);
	cr_expect_eq(linux_initrd_gpa(&li, &mem, 200 * MiB, 0), 0, "above the kernel or nowhere");
}

/* Debian's kernel files as the build fetched them (harness/nested/fetch-kernel.sh). */
static const void *map_file(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	void *m;

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	*len = (size_t)st.st_size;
	return m == MAP_FAILED ? NULL : m;
}

Test(linux_load, debian_kernel_files)
{
	static const struct {
		const char *path;
		enum linux_kind kind;
	} files[] = {
		{EL_BINARY_DIR "/nested/kernel", LINUX_PVH},
		{EL_NESTED_CACHE "/vmlinuz", LINUX_BZIMAGE},
	};
	unsigned seen = 0;

	for (size_t i = 0; i < EL_ARRAY_SIZE(files); i++) {
		size_t len = 0;
		const void *img = map_file(files[i].path, &len);
		char rel[65];

		if (!img)
			continue;
		seen++;
		accepted(img, len, 256 * MiB, 2 * MiB);
		cr_expect_eq(li.kind, files[i].kind, "%s", files[i].path);
		linux_release(img, &li, rel, sizeof(rel));
		cr_expect(strlen(rel) > 2 && rel[0] >= '0' && rel[0] <= '9', "%s: release '%s'",
			  files[i].path, rel);
		refused(img, len / 2, 256 * MiB, 0, "");
		refused(img, len, 48 * MiB, 0, "raise --memory");
		munmap((void *)img, len);
	}
	if (!seen)
		cr_skip_test("no kernel under %s/nested (a build with -DENTRYLAB_NESTED=OFF)",
			     EL_BINARY_DIR);
}
