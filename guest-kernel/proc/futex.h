/*
 * Futexes (futex.c): futex(2) for musl's threads (WAIT, WAKE, REQUEUE,
 * CMP_REQUEUE, the BITSET pair), the PI operations (LOCK_PI, LOCK_PI2,
 * TRYLOCK_PI, UNLOCK_PI) and CLONE_CHILD_CLEARTID; robust futex lists
 * (futex_robust.c): set_robust_list/get_robust_list and their walk at
 * thread exit and exec.
 */
#ifndef EL_PROC_FUTEX_H
#define EL_PROC_FUTEX_H

#include "kernel.h"

/* The PI futex word (Linux include/uapi/linux/futex.h): owner TID and two flags. */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu

struct mm;
struct task;

/* Wakes up to n waiters on the futex word at uaddr of mm; returns how many. */
unsigned futex_wake(struct mm *mm, uint64_t uaddr, unsigned n);

/* Wakes every LOCK_PI waiter whose owner is tid, which exits: they take the lock over. */
void futex_pi_owner_exit(int tid);

/*
 * The current thread exits or execs (Linux futex_exit_release /
 * futex_exec_release): walks its robust list, marking each futex it owns
 * FUTEX_OWNER_DIED and waking a waiter, forgets the list, then wakes the PI
 * waiters on its locks.  Runs with the thread's own address space loaded.
 */
void futex_release(struct task *t);

#endif
