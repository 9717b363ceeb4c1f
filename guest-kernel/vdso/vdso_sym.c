/*
 * Dynamic-symbol lookup in a vDSO image (vdso_sym.h).  The image is linked
 * at 0 and loaded as one segment from offset 0 (vdso_image_check), so the
 * dynamic section's addresses are offsets into it.
 */
#include "elf64.h"
#include "vdso_sym.h"

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

static const struct elf64_phdr *find_dynamic(const uint8_t *img, uint64_t size)
{
	const struct elf64_ehdr *eh = (const void *)img;
	const struct elf64_phdr *ph;
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
	const struct elf64_phdr *dph = find_dynamic(img, size);
	const struct elf64_dyn *d;
	uint64_t hash = 0, strtab = 0, symtab = 0, strsz = 0, syment = 0, n, i, nsyms;
	const struct elf64_sym *syms;

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
	if (!hash || !strtab || !symtab || syment != sizeof(struct elf64_sym) ||
	    !fits(hash, 8, size) || hash % 4 || symtab % 8 || !fits(strtab, strsz, size))
		return 0;
	nsyms = ((const uint32_t *)(img + hash))[1];
	if (!fits(symtab, nsyms * sizeof(struct elf64_sym), size))
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
