/* libelf helpers shared by the trace's ELF code (trace_elf.c, trace_syms.c). */
#ifndef EL_TRACE_ELF_H
#define EL_TRACE_ELF_H

#include <gelf.h>
#include <libelf.h>

/* A 64-bit ELF image in memory, NULL if it is not one; elf_end() it. */
Elf *trace_elf_open(const void *image, size_t len);
/* The symbol table to use: .symtab, else .dynsym (a stripped vDSO); NULL if none. */
Elf_Scn *trace_elf_symbols(Elf *e, GElf_Shdr *sh);

#endif
