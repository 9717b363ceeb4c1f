/*
 * ELF access for the trace (libelf, from memory): opening an image, its
 * symbol table, a symbol's value, the file bytes behind a virtual address
 * (the vDSO images inside the kernel), and the load bias the guest gives a
 * static-PIE program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_check.h"
#include "trace.h"
#include "trace_elf.h"

Elf *trace_elf_open(const void *image, size_t len)
{
	Elf *e;
	GElf_Ehdr eh;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	e = elf_memory((char *)image, len);
	if (e && (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) ||
		  gelf_getclass(e) != ELFCLASS64)) {
		elf_end(e);
		return NULL;
	}
	return e;
}

/* The symbol table to use: .symtab, else .dynsym (a stripped vDSO). */
Elf_Scn *trace_elf_symbols(Elf *e, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *dyn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		if (sh->sh_type == SHT_SYMTAB)
			return scn;
		if (sh->sh_type == SHT_DYNSYM)
			dyn = scn;
	}
	if (dyn)
		gelf_getshdr(dyn, sh);
	return dyn;
}

uint64_t elf_symbol_value(const void *elf, size_t len, const char *name)
{
	Elf *e = trace_elf_open(elf, len);
	GElf_Shdr sh;
	Elf_Scn *scn = e ? trace_elf_symbols(e, &sh) : NULL;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	uint64_t v = 0;

	for (size_t i = 0; i < n && !v; i++) {
		GElf_Sym s;
		const char *sn;

		if (gelf_getsym(data, (int)i, &s) && (sn = elf_strptr(e, sh.sh_link, s.st_name)) &&
		    !strcmp(sn, name))
			v = s.st_value;
	}
	if (e)
		elf_end(e);
	return v;
}

const unsigned char *elf_vaddr_bytes(const void *elf, size_t len, uint64_t vaddr, uint64_t size)
{
	Elf *e = trace_elf_open(elf, len);
	const unsigned char *p = NULL;
	size_t nph;

	if (!e || elf_getphdrnum(e, &nph))
		nph = 0;
	for (size_t i = 0; i < nph && !p; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || vaddr < ph.p_vaddr ||
		    size > ph.p_filesz || vaddr - ph.p_vaddr > ph.p_filesz - size ||
		    ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			continue;
		p = (const unsigned char *)elf + ph.p_offset + (vaddr - ph.p_vaddr);
	}
	if (e)
		elf_end(e);
	return p;
}

uint64_t elf_program_bias(const void *elf, size_t len)
{
	Elf *e = trace_elf_open(elf, len);
	uint64_t lo = UINT64_MAX, align = 4096, base;
	GElf_Ehdr eh;
	size_t nph;

	if (!e || !gelf_getehdr(e, &eh) || eh.e_type != ET_DYN || elf_getphdrnum(e, &nph)) {
		if (e)
			elf_end(e);
		return 0;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr < lo)
			lo = ph.p_vaddr;
		if (ph.p_align > align && !(ph.p_align & (ph.p_align - 1)))
			align = ph.p_align;
	}
	elf_end(e);
	if (lo == UINT64_MAX)
		return 0;
	/* As the guest's elf_place() does: the lowest segment at ELF_DYN_BASE. */
	base = ELF_DYN_BASE & ~(align - 1);
	lo &= ~(align - 1);
	return lo < base ? base - lo : 0;
}
