/*
 * Dynamic-symbol lookup in a vDSO image (vdso_sym.h).  The image is linked
 * at 0 and loaded as one segment from offset 0 (vdso_image_check), so the
 * dynamic section's addresses are offsets into it.
 */
#include "vdso_sym.h"

#define PT_DYNAMIC 2
#define DT_NULL 0
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_STRSZ 10
#define DT_SYMENT 11
#define SHN_UNDEF 0

struct sym_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct sym_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct sym_dyn {
	int64_t tag;
	uint64_t val;
};

struct sym_entry {
	uint32_t name;
	uint8_t info, other;
	uint16_t shndx;
	uint64_t value, size;
};

static int fits(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* The name at strtab + off equals name, all of it inside [strtab, strtab + strsz). */
static int name_is(const uint8_t *strtab, uint64_t strsz, uint64_t off, const char *name)
{
	uint64_t i;

	for (i = 0; off + i < strsz; i++) {
		if ((char)strtab[off + i] != name[i])
			return 0;
		if (!name[i])
			return 1;
	}
	return 0;
}

static const struct sym_phdr *find_dynamic(const uint8_t *img, uint64_t size)
{
	const struct sym_ehdr *eh = (const void *)img;
	const struct sym_phdr *ph;
	unsigned i;

	if (size < sizeof(*eh) || eh->ident[0] != 0x7f || eh->ident[1] != 'E' ||
	    eh->ident[2] != 'L' || eh->ident[3] != 'F' || eh->ident[4] != 2 ||
	    eh->phentsize != sizeof(*ph) || eh->phoff % 8 ||
	    !fits(eh->phoff, (uint64_t)eh->phnum * sizeof(*ph), size))
		return 0;
	ph = (const void *)(img + eh->phoff);
	for (i = 0; i < eh->phnum; i++)
		if (ph[i].type == PT_DYNAMIC)
			return fits(ph[i].offset, ph[i].filesz, size) && ph[i].offset % 8 == 0
				       ? &ph[i] : 0;
	return 0;
}

uint64_t vdso_sym_find(const uint8_t *img, uint64_t size, const char *name)
{
	const struct sym_phdr *dph = find_dynamic(img, size);
	const struct sym_dyn *d;
	uint64_t hash = 0, strtab = 0, symtab = 0, strsz = 0, syment = 0, n, i, nsyms;
	const struct sym_entry *syms;

	if (!dph)
		return 0;
	d = (const void *)(img + dph->offset);
	n = dph->filesz / sizeof(*d);
	for (i = 0; i < n && d[i].tag != DT_NULL; i++) {
		if (d[i].tag == DT_HASH)
			hash = d[i].val;
		else if (d[i].tag == DT_STRTAB)
			strtab = d[i].val;
		else if (d[i].tag == DT_SYMTAB)
			symtab = d[i].val;
		else if (d[i].tag == DT_STRSZ)
			strsz = d[i].val;
		else if (d[i].tag == DT_SYMENT)
			syment = d[i].val;
	}
	/* DT_HASH: nbucket, nchain, ...; nchain is the number of symbols. */
	if (!hash || !strtab || !symtab || syment != sizeof(struct sym_entry) ||
	    !fits(hash, 8, size) || hash % 4 || symtab % 8 || !fits(strtab, strsz, size))
		return 0;
	nsyms = ((const uint32_t *)(img + hash))[1];
	if (!fits(symtab, nsyms * sizeof(struct sym_entry), size))
		return 0;
	syms = (const void *)(img + symtab);
	for (i = 1; i < nsyms; i++) {
		if (syms[i].shndx == SHN_UNDEF || !syms[i].value)
			continue;
		if (name_is(img + strtab, strsz, syms[i].name, name))
			return fits(syms[i].value, 1, size) ? syms[i].value : 0;
	}
	return 0;
}
