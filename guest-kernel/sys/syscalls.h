/*
 * System calls: every handler has the same shape (six raw argument
 * registers in, a value or -errno out) and sits in one table indexed by the
 * Linux x86-64 syscall number (sys/syscall_table.c).  Handlers live with
 * their subsystem: proc/, mm/, fs/, time/ ...
 */
#ifndef EL_SYSCALLS_H
#define EL_SYSCALLS_H

#include "kernel.h"

#define SYSCALL(name)                                                                      \
	long sys_##name(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,   \
			uint64_t a5)

typedef long syscall_fn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* time/ (clock, vDSO fallbacks) */
SYSCALL(clock_gettime);
SYSCALL(clock_getres);
SYSCALL(gettimeofday);
SYSCALL(time);
SYSCALL(getcpu);
SYSCALL(nanosleep);
SYSCALL(getrandom);

#endif
