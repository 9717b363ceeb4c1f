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
	uint64_t sysinfo;   /* AT_SYSINFO (an i386 program: vdso32's __kernel_vsyscall), 0 for none */
	const char *execfn; /* AT_EXECFN */
	bool ia32;          /* an i386 program: 4-byte words, "i686", AT_PHENT 32, no vDSO */
	uint64_t sp;        /* out: RSP at entry (points at argc, 16-byte aligned) */
};

/*
 * A new program's strings: argv[0..argc) and envp[0..envc), each at most
 * EXEC_MAX_STRINGS (execve gives the caller's, init gets exec_init_env).
 */
#define EXEC_MAX_STRINGS 64
struct exec_strings {
	const char *const *argv;
	unsigned argc;
	const char *const *envp;
	unsigned envc;
};

/* init's environment (HOME=/ PATH=/bin TERM=linux): what Linux's kernel gives /init. */
extern const char *const exec_init_env[];
extern const unsigned exec_init_envc;

/* Writes the stack of the active address space mm: 0 or -errno (-E2BIG: too many strings). */
int exec_build_stack(struct mm *mm, struct exec_image *img, const struct exec_strings *s);

#endif
