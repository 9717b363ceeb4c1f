/*
 * Futexes (futex.c): enough of futex(2) for musl's threads (WAIT, WAKE,
 * REQUEUE, CMP_REQUEUE, the BITSET pair) and CLONE_CHILD_CLEARTID.
 */
#ifndef EL_PROC_FUTEX_H
#define EL_PROC_FUTEX_H

#include "kernel.h"

struct mm;

/* Wakes up to n waiters on the futex word at uaddr of mm; returns how many. */
unsigned futex_wake(struct mm *mm, uint64_t uaddr, unsigned n);

#endif
