/*
 * The host's one ELF reader (libelf, images in memory; host only).  Every
 * host consumer of an ELF image opens it here: the PVH loader (the guest
 * kernel), the --exec check, the trace's symbols and markers, the nested
 * runner's check of its own binary.
 */
#ifndef EL_HOST_ELF_H
#define EL_HOST_ELF_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A 64-bit little-endian x86-64 ELF image in memory (never written to);
 * elf_end() it.  NULL with the reason in err (may be NULL): "not an ELF
 * file", "truncated ELF header", "... is not ELFCLASS64", "... EM_X86_64".
 */
Elf *host_elf_open(const void *image, size_t len, char *err, size_t errlen);
/* The symbol table to use: .symtab, else .dynsym (a stripped vDSO); NULL if none. */
Elf_Scn *host_elf_symbols(Elf *e, GElf_Shdr *sh);
/* True if a program header is PT_INTERP (a dynamically linked program). */
bool host_elf_has_interp(Elf *e);

/* Any symbol's value by name (data too); 0 if absent. */
uint64_t elf_symbol_value(const void *elf, size_t len, const char *name);
/* The file bytes of [vaddr, vaddr + size) in a loadable segment; NULL if not all there. */
const unsigned char *elf_vaddr_bytes(const void *elf, size_t len, uint64_t vaddr, uint64_t size);
/* Where the guest loads a program: 0 for ET_EXEC, the static-PIE bias for ET_DYN. */
uint64_t elf_program_bias(const void *elf, size_t len);

struct el_region_site;
/*
 * The region marker sites a program lists in its EL_REGION_SITES_SECTION
 * (include/entrylab/linux_init.h), at their link-time addresses, into
 * out[0..max).  A site with addr 0 (its function dropped by the linker) is
 * skipped.  Refused, with the reason in err: a section whose size is not
 * a multiple of the record, an op other than EL_REGION_BEGIN/END, more
 * than max sites, an address whose two bytes in an executable segment of
 * the file are not SYSCALL (0f 05).  The number of sites (0: no section,
 * or none kept), or -1.
 */
int elf_region_sites(const void *elf, size_t len, struct el_region_site *out, size_t max,
		     char *err, size_t errlen);
/* An ELF note of this owner and type in a PT_NOTE segment (the PVH entry: "Xen", 18). */
bool elf_has_note(const void *elf, size_t len, const char *owner, uint32_t type);
/* The ELF image has a section of this name. */
bool elf_has_section(const void *elf, size_t len, const char *name);

#endif
