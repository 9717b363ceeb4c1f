/*
 * The C side of the SYSCALL entry (entry_syscall.S) and the syscall table.
 */
#ifndef EL_SYS_SYSCALL_H
#define EL_SYS_SYSCALL_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"
#include "sys/syscalls.h"

#define NR_SYSCALLS 1024 /* table size: Linux's numbers and entrylab's 1000+ */

/* Indexed by number; NULL: unknown (-ENOSYS, counted). */
extern syscall_fn *const syscall_table[NR_SYSCALLS];

/*
 * Runs the syscall of the frame and stores its result in the frame's RAX.
 * Returns non-zero when the frame allows SYSRET (Linux's conditions).
 */
int syscall_dispatch(struct trap_frame *tf);

/* Calls of numbers without a handler so far (guest.unknown_syscalls). */
uint64_t syscall_unknown_count(void);

#endif
