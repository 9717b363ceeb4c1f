/*
 * usercheck: does the kernel give a static musl program the Linux ABI it
 * expects?  Groups of checks, one file each; usercheck_main.c runs them.
 * Everything must pass on a real Linux host too; the few checks that only
 * make sense under the entrylab kernel say SKIP elsewhere.
 */
#ifndef EL_USERCHECK_H
#define EL_USERCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"

struct uc_env {
	bool entrylab;          /* EL_SYS_REGION answers: the entrylab kernel */
	const char *self;       /* a read-only file to read (the program itself) */
	const char *vsyscall;   /* expected mode: native, emulate, xonly, none or any */
	int vdso;               /* 1: must exist, 0: must not, -1: either */
	long long host_time;    /* host CLOCK_REALTIME seconds at launch, -1: unknown */
	long long host_tol;     /* allowed difference in seconds */
	int tmp_fd;             /* open RW file in /tmp, set by uc_files */
};

/* Negative errno of a raw syscall (the kernel's answer, no libc in between). */
long uc_sys(long nr, long a, long b, long c);

void uc_files(struct uc_env *env);
void uc_memory(struct uc_env *env);
void uc_time(struct uc_env *env);
void uc_proc(struct uc_env *env);
void uc_errors(struct uc_env *env);
void uc_maps(struct uc_env *env);
void uc_vsyscall(struct uc_env *env);

/* Separate mode: must die (SIGSEGV, status 139); returns only on failure. */
int uc_fault_after_munmap(void);

#endif
