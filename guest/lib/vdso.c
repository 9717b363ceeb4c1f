/* vDSO symbol lookup: a linear scan of the dynamic symbol table. */
#include "vdso.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>

uintptr_t el_vdso_base(void)
{
	return getauxval(AT_SYSINFO_EHDR);
}

/* Symbol count from DT_GNU_HASH: one past the end of the last bucket's chain. */
static uint32_t gnu_hash_count(const uint32_t *gh)
{
	uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_words = gh[2];
	const uint32_t *buckets = gh + 4 + 2 * bloom_words; /* bloom words are 64-bit */
	const uint32_t *chain = buckets + nbuckets;
	uint32_t last = 0;

	for (uint32_t i = 0; i < nbuckets; i++)
		if (buckets[i] > last)
			last = buckets[i];
	if (last < symoffset)
		return symoffset;
	while (!(chain[last - symoffset] & 1))
		last++;
	return last + 1;
}

void *el_vdso_sym(const char *name)
{
	uintptr_t base = el_vdso_base();
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn;
	uintptr_t dyn_vaddr = 0;
	const Elf64_Sym *symtab = NULL;
	const char *strtab = NULL;
	const uint32_t *hash = NULL, *gnu_hash = NULL;
	uintptr_t bias = 0;
	int have_load = 0;
	uint32_t count;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof(*ph))
		return NULL;
	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			bias = base + ph[i].p_offset - ph[i].p_vaddr;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC) {
			dyn_vaddr = ph[i].p_vaddr;
		}
	}
	if (!have_load || !dyn_vaddr)
		return NULL;
	dyn = (const Elf64_Dyn *)(bias + dyn_vaddr);
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t p = bias + dyn->d_un.d_ptr;

		if (dyn->d_tag == DT_SYMTAB)
			symtab = (const Elf64_Sym *)p;
		else if (dyn->d_tag == DT_STRTAB)
			strtab = (const char *)p;
		else if (dyn->d_tag == DT_HASH)
			hash = (const uint32_t *)p;
		else if (dyn->d_tag == DT_GNU_HASH)
			gnu_hash = (const uint32_t *)p;
	}
	if (!symtab || !strtab || (!hash && !gnu_hash))
		return NULL;
	count = hash ? hash[1] : gnu_hash_count(gnu_hash);
	for (uint32_t i = 1; i < count; i++) {
		const Elf64_Sym *s = &symtab[i];
		unsigned type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);

		if (s->st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_NOTYPE) ||
		    (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		if (strcmp(strtab + s->st_name, name) == 0)
			return (void *)(bias + s->st_value);
	}
	return NULL;
}
