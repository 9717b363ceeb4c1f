/*
 * mmcheck: address spaces as Linux x86-64 manages them, checked from
 * inside a static musl program: mremap (moves, growth, errors, the vDSO),
 * process_vm_readv/writev, fork's copy and MAP_SHARED sharing,
 * /proc/self/smaps and status.  Groups of checks, one file each;
 * mmcheck_main.c runs them.  Everything must pass on a Linux host first.
 */
#ifndef EL_MMCHECK_H
#define EL_MMCHECK_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "check.h"

#define MC_PAGE 4096ul

void mc_remap(void);
void mc_vdso(void);
void mc_vm(void);
void mc_fork(void);
void mc_proc(void);

/* Raw syscall: the kernel's answer as -errno (no libc in between). */
long mc_sys(long nr, long a, long b, long c, long d, long e, long f);

/* An anonymous private read-write mapping of n pages (exits on failure). */
void *mc_map(size_t pages);
/* The same, between two PROT_NONE pages: an area of its own, merged with no neighbour. */
void *mc_map_alone(size_t pages);
/* Address range [start, end) of the /proc/self/maps line named name; false if none. */
bool mc_find_map(const char *name, unsigned long *start, unsigned long *end);
/* The mapping containing addr is listed with these perms ("rw-p"); false if none. */
bool mc_mapped(unsigned long addr, char perms[5]);
/* Runs fn in a forked child; its exit status (or 128 + signal), -1 if fork failed. */
int mc_in_child(int (*fn)(void *), void *arg);

#endif
