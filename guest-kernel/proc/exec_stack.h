/*
 * The initial user stack of a new program (System V x86-64 ABI): argc,
 * argv, envp and the auxiliary vector, with their strings above.
 */
#ifndef EL_PROC_EXEC_STACK_H
#define EL_PROC_EXEC_STACK_H

#include "kernel.h"
#include "mm/mm.h"

struct exec_image {
	uint64_t entry;     /* AT_ENTRY */
	uint64_t phdr;      /* AT_PHDR */
	uint64_t phnum;     /* AT_PHNUM */
	uint64_t vdso;      /* AT_SYSINFO_EHDR, 0 for none */
	const char *execfn; /* AT_EXECFN */
	uint64_t sp;        /* out: RSP at entry (points at argc, 16-byte aligned) */
};

/* Writes the stack of the active address space mm: 0 or -errno. */
int exec_build_stack(struct mm *mm, struct exec_image *img, const char *const *argv,
		     unsigned argc);

#endif
