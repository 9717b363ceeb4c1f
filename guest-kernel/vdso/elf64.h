/*
 * The few ELF64 structures and constants the kernel reads in its own vDSO
 * images (the kernel has no <elf.h>).  Pure: the host unit tests include it.
 */
#ifndef EL_VDSO_ELF64_H
#define EL_VDSO_ELF64_H

#include <stdint.h>

struct elf64_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct elf64_dyn {
	int64_t tag;
	uint64_t val;
};

struct elf64_sym {
	uint32_t name;
	uint8_t info, other;
	uint16_t shndx;
	uint64_t value, size;
};

#define ET_DYN 3
#define EM_X86_64 62
#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PF_RX 5
#define DT_NULL 0
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_STRSZ 10
#define DT_SYMENT 11
#define SHN_UNDEF 0

#endif
