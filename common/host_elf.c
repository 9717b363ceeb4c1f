/*
 * The host's ELF reader (host_elf.h): opening an image with the checks every
 * user needs, its symbol table, a symbol's value, the file bytes behind a
 * virtual address (the vDSO images inside the kernel), the load bias the
 * guest gives a static-PIE program, and a program's region marker sites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_check.h"
#include "entrylab/linux_init.h"
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

/* The section of that name, with its header; NULL if none. */
static Elf_Scn *section_named(Elf *e, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(e, shstrndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

bool elf_has_section(const void *elf, size_t len, const char *name)
{
	Elf *e = host_elf_open(elf, len, NULL, 0);
	GElf_Shdr sh;
	bool found = e && section_named(e, name, &sh);

	if (e)
		elf_end(e);
	return found;
}

/* The two bytes at vaddr in an executable PT_LOAD segment's file bytes; NULL if not there. */
static const unsigned char *exec_bytes(Elf *e, const void *elf, size_t len, uint64_t vaddr)
{
	size_t nph;

	if (elf_getphdrnum(e, &nph))
		return NULL;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) ||
		    vaddr < ph.p_vaddr || ph.p_filesz < 2 || vaddr - ph.p_vaddr > ph.p_filesz - 2 ||
		    ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			continue;
		return (const unsigned char *)elf + ph.p_offset + (vaddr - ph.p_vaddr);
	}
	return NULL;
}

int elf_region_sites(const void *elf, size_t len, struct el_region_site *out, size_t max,
		     char *err, size_t errlen)
{
	Elf *e = host_elf_open(elf, len, err, errlen);
	const size_t rec = sizeof(struct el_region_site);
	Elf_Data *data;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t n = 0;
	int rc = -1;

	if (!e)
		return -1;
	scn = section_named(e, EL_REGION_SITES_SECTION, &sh);
	if (!scn) {
		rc = 0;
		goto out;
	}
	data = sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
	if (!data || !data->d_buf || data->d_size % rec) {
		ERR("section %s is %zu bytes, not whole %zu-byte site records",
		    EL_REGION_SITES_SECTION, data ? data->d_size : (size_t)0, rec);
		goto out;
	}
	for (size_t i = 0; i < data->d_size / rec; i++) {
		struct el_region_site site;
		const unsigned char *b;

		memcpy(&site, (const char *)data->d_buf + i * rec, rec);
		if (!site.addr)
			continue; /* its function was dropped */
		if (site.op != EL_REGION_BEGIN && site.op != EL_REGION_END) {
			ERR("%s record %zu: op %llu is neither EL_REGION_BEGIN (%u) nor END (%u)",
			    EL_REGION_SITES_SECTION, i, (unsigned long long)site.op,
			    (unsigned)EL_REGION_BEGIN, (unsigned)EL_REGION_END);
			goto out;
		}
		b = exec_bytes(e, elf, len, site.addr);
		if (!b || b[0] != 0x0f || b[1] != 0x05) {
			ERR("%s record %zu: 0x%llx is %s", EL_REGION_SITES_SECTION, i,
			    (unsigned long long)site.addr,
			    b ? "not a SYSCALL instruction (0f 05)"
			      : "not in an executable segment");
			goto out;
		}
		if (n == max) {
			ERR("%s lists more than %zu sites", EL_REGION_SITES_SECTION, max);
			goto out;
		}
		out[n++] = site;
	}
	rc = (int)n;
out:
	elf_end(e);
	return rc;
}

bool elf_has_note(const void *elf, size_t len, const char *owner, uint32_t type)
{
	Elf *e = host_elf_open(elf, len, NULL, 0);
	size_t nph, olen = strlen(owner) + 1;
	bool found = false;

	if (!e || elf_getphdrnum(e, &nph))
		nph = 0;
	for (size_t i = 0; i < nph && !found; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			continue;
		d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
			if (nh.n_type == type && nh.n_namesz == olen &&
			    !memcmp((const char *)d->d_buf + name_off, owner, olen))
				found = true;
	}
	if (e)
		elf_end(e);
	return found;
}
