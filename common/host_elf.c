/*
 * The host's ELF reader (host_elf.h): opening an image with the checks every
 * user needs, its symbol table, a symbol's value, the file bytes behind a
 * virtual address (the vDSO images inside the kernel), and the load bias the
 * guest gives a static-PIE program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_check.h"
#include "host_elf.h"

#define ERR(...) (err ? (void)snprintf(err, errlen, __VA_ARGS__) : (void)0)

Elf *host_elf_open(const void *image, size_t len, char *err, size_t errlen)
{
	const char *ident;
	GElf_Ehdr eh;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		ERR("libelf is unusable: %s", elf_errmsg(-1));
		return NULL;
	}
	/* libelf only reads a native-endian image in place; it never writes to it. */
	e = elf_memory((char *)(uintptr_t)image, len);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		ERR("not an ELF file (%zu bytes, no \\177ELF magic)", len);
		goto bad;
	}
	ident = elf_getident(e, NULL);
	if (!ident || !gelf_getehdr(e, &eh)) {
		ERR("truncated ELF header (%zu bytes): %s", len, elf_errmsg(-1));
		goto bad;
	}
	if (ident[EI_CLASS] != ELFCLASS64) {
		ERR("ELF class %d is not ELFCLASS64: a 64-bit ELF is needed", ident[EI_CLASS]);
		goto bad;
	}
	if (ident[EI_DATA] != ELFDATA2LSB) {
		ERR("ELF data encoding %d is not little-endian", ident[EI_DATA]);
		goto bad;
	}
	if (eh.e_machine != EM_X86_64) {
		ERR("ELF machine %u is not EM_X86_64 (%u): build it for x86-64", eh.e_machine,
		    EM_X86_64);
		goto bad;
	}
	return e;
bad:
	if (e)
		elf_end(e);
	return NULL;
}

bool host_elf_has_interp(Elf *e)
{
	size_t nph;

	if (elf_getphdrnum(e, &nph))
		return false;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	}
	return false;
}
/* The symbol table to use: .symtab, else .dynsym (a stripped vDSO). */
Elf_Scn *host_elf_symbols(Elf *e, GElf_Shdr *sh)
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
	Elf *e = host_elf_open(elf, len, NULL, 0);
	GElf_Shdr sh;
	Elf_Scn *scn = e ? host_elf_symbols(e, &sh) : NULL;
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
	Elf *e = host_elf_open(elf, len, NULL, 0);
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
	Elf *e = host_elf_open(elf, len, NULL, 0);
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
