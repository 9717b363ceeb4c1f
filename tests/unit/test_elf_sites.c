/*
 * A program's region marker sites (common/host_elf.c elf_region_sites,
 * include/entrylab/linux_init.h): this very test binary lists two, in the
 * same section the markers of guest/lib/region.h fill; copies of it with
 * the section's records changed are refused with the record named.  Also
 * elf_has_note, on a note this binary carries.
 */
#include <criterion/criterion.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "entrylab/linux_init.h"
#include "host_elf.h"
#include "host_io.h"

/* Never called: two marker SYSCALLs and their records, as region.h writes them. */
void el_test_sites(void);
__asm__(".pushsection .text\n"
	".globl el_test_sites\n"
	"el_test_sites:\n"
	"1:\tsyscall\n"
	"\tnop\n"
	"2:\tsyscall\n"
	"\tret\n"
	".pushsection " EL_REGION_SITES_SECTION ",\"\",@progbits\n"
	".balign 8\n"
	".quad 1b, 1\n"
	".quad 0, 2\n" /* a site whose function the linker dropped */
	".quad 2b, 2\n"
	".popsection\n"
	".popsection\n"
	".pushsection .note.entrylab-test,\"a\",@note\n"
	".balign 4\n"
	".long 7, 4, 77\n"
	".asciz \"entryl\"\n"
	".balign 4\n"
	".long 0\n"
	".popsection\n");

static unsigned char *self(size_t *len)
{
	char why[256];
	char *img = io_read_file("/proc/self/exe", 256u << 20, len, why, sizeof(why));

	cr_assert_not_null(img, "%s", why);
	return (unsigned char *)img;
}

/* The file offset of the sites section's data. */
static size_t sites_offset(const unsigned char *img, size_t len)
{
	Elf *e = host_elf_open(img, len, NULL, 0);
	Elf_Scn *scn = NULL;
	size_t shstrndx, off = 0;
	GElf_Shdr sh;

	cr_assert_not_null(e);
	cr_assert_eq(elf_getshdrstrndx(e, &shstrndx), 0);
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(e, shstrndx, sh.sh_name), EL_REGION_SITES_SECTION))
			off = sh.sh_offset;
	elf_end(e);
	cr_assert_neq(off, 0);
	return off;
}

Test(elf_sites, this_binary_lists_two)
{
	size_t len;
	unsigned char *img = self(&len);
	struct el_region_site s[4];
	char err[300];
	int n = elf_region_sites(img, len, s, 4, err, sizeof(err));

	cr_assert_eq(n, 2, "%s", err);
	cr_assert_eq(s[0].op, EL_REGION_BEGIN);
	cr_assert_eq(s[1].op, EL_REGION_END);
	cr_assert_eq(s[1].addr - s[0].addr, 3, "syscall; nop; syscall");
	cr_assert_eq(elf_region_sites(img, len, s, 1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "more than 1 sites"), "%s", err);
	cr_assert(elf_has_note(img, len, "entryl", 77));
	cr_assert_not(elf_has_note(img, len, "entryl", 78));
	cr_assert_not(elf_has_note(img, len, "Xen", 18));
	cr_assert(elf_has_section(img, len, EL_REGION_SITES_SECTION));
	free(img);
}

Test(elf_sites, bad_records_refused)
{
	size_t len, off;
	unsigned char *img = self(&len);
	struct el_region_site s[4], rec;
	char err[300];

	off = sites_offset(img, len);
	memcpy(&rec, img + off, sizeof(rec));
	/* An op that is neither BEGIN nor END. */
	((struct el_region_site *)(void *)(img + off))->op = 7;
	cr_assert_eq(elf_region_sites(img, len, s, 4, err, sizeof(err)), -1);
	cr_assert(strstr(err, "record 0: op 7"), "%s", err);
	/* An address one byte off: not a SYSCALL. */
	rec.addr += 1;
	memcpy(img + off, &rec, sizeof(rec));
	cr_assert_eq(elf_region_sites(img, len, s, 4, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not a SYSCALL instruction"), "%s", err);
	/* An address outside every executable segment. */
	rec.addr = 0x10;
	memcpy(img + off, &rec, sizeof(rec));
	cr_assert_eq(elf_region_sites(img, len, s, 4, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not in an executable segment"), "%s", err);
	free(img);
}

Test(elf_sites, no_section_no_sites)
{
	static const unsigned char not_elf[64] = "not an ELF";
	struct el_region_site s[1];
	char err[300];

	cr_assert_eq(elf_region_sites(not_elf, sizeof(not_elf), s, 1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not an ELF"), "%s", err);
}
