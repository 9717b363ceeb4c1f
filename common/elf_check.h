/*
 * Validation and layout of a static x86-64 ELF executable before anything
 * is mapped: ET_EXEC, or ET_DYN without PT_INTERP (static-pie); an i386
 * one too (ELFCLASS32, EM_386: a compat process, proc/exec32.c), whose
 * 32-bit headers are read into the same struct elf_info.  Dynamically
 * linked programs (PT_INTERP) are refused: there is no loader to run.  The
 * file is untrusted: every offset and size is checked against it.
 *
 * Pure C (only <stdint.h>/<stddef.h>): the host unit tests compile it, and
 * the VMM may use it to refuse a binary before boot.
 */
#ifndef EL_PROC_ELF_CHECK_H
#define EL_PROC_ELF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_MAX_LOADS 16
#define ELF_MAX_PHNUM 128
#define ELF_PAGE 4096u
#define ELF_ET_EXEC 2
#define ELF_ET_DYN 3
#define ELF_PHENT_SIZE 56
#define ELF32_PHENT_SIZE 32
/* Where a static-pie goes (Linux's ELF_ET_DYN_BASE without randomization). */
#define ELF_DYN_BASE 0x555555554000ull
/* ... and an i386 one (Linux's ELF_ET_DYN_BASE of an ia32 process). */
#define ELF32_DYN_BASE 0x400000ull
/* The end of an i386 process's space (IA32_PAGE_OFFSET: TASK_SIZE of a compat task). */
#define ELF32_TASK_SIZE 0xffffe000ull
/* Lowest address a segment may use (Linux's default vm.mmap_min_addr). */
#define ELF_MIN_ADDR 0x10000ull

/* Segment permissions: the bits of VMA_R/W/X and PROT_READ/WRITE/EXEC. */
#define ELF_PROT_R 0x1u
#define ELF_PROT_W 0x2u
#define ELF_PROT_X 0x4u

enum elf_error {
	ELF_OK = 0,
	ELF_ERR_SHORT,     /* smaller than an ELF header */
	ELF_ERR_MAGIC,     /* no \177ELF */
	ELF_ERR_CLASS,     /* neither ELFCLASS64 nor ELFCLASS32, or the class of the other machine */
	ELF_ERR_DATA,      /* not little-endian */
	ELF_ERR_VERSION,   /* not EV_CURRENT */
	ELF_ERR_MACHINE,   /* neither EM_X86_64 nor EM_386 */
	ELF_ERR_TYPE,      /* neither ET_EXEC nor ET_DYN */
	ELF_ERR_PHDRS,     /* program header table size, count or place invalid */
	ELF_ERR_INTERP,    /* PT_INTERP: dynamically linked */
	ELF_ERR_NO_LOAD,   /* no PT_LOAD segment */
	ELF_ERR_TOO_MANY,  /* more than ELF_MAX_LOADS PT_LOAD segments */
	ELF_ERR_SEGMENT,   /* filesz > memsz, data outside the file, bad alignment */
	ELF_ERR_OVERLAP,   /* PT_LOAD pages overlap or are out of order */
	ELF_ERR_RANGE,     /* a segment lies outside the user address range */
	ELF_ERR_ENTRY,     /* the entry point lies in no PT_LOAD segment */
	ELF_ERR_COUNT
};

struct elf_segment {
	uint64_t vaddr, memsz; /* unbiased */
	uint64_t offset, filesz;
	uint32_t prot;         /* ELF_PROT_* */
};

struct elf_info {
	uint16_t type;       /* ELF_ET_EXEC or ELF_ET_DYN */
	bool is32;          /* ELFCLASS32 EM_386: an i386 program (every address below 4 GiB) */
	uint16_t phnum;
	uint64_t entry;      /* unbiased */
	uint64_t phdr_vaddr; /* unbiased address of the program headers once loaded */
	uint64_t lo, hi;     /* page-aligned extent of the PT_LOAD segments, unbiased */
	uint64_t max_align;  /* largest PT_LOAD p_align (at least a page) */
	unsigned nr_loads;
	struct elf_segment loads[ELF_MAX_LOADS];
};

/* Checks buf[0..len) and fills *info; returns ELF_OK or an enum elf_error. */
int elf_check(const uint8_t *buf, size_t len, struct elf_info *info);

/*
 * The load bias: 0 for ET_EXEC, ELF_DYN_BASE (ELF32_DYN_BASE for i386)
 * aligned down to max_align for ET_DYN.  Then checks that [lo, hi) + bias
 * lies in [ELF_MIN_ADDR, limit): ELF_OK or ELF_ERR_RANGE.
 */
int elf_place(const struct elf_info *info, uint64_t limit, uint64_t *bias);

/* "dynamically linked (PT_INTERP): ..." etc. */
const char *elf_strerror(int err);

#endif
