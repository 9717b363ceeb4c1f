/*
 * threadcheck: threads on one CPU as musl's pthreads and Linux give them:
 * pthread_create/join with a contended mutex, TLS, tids, thread-directed
 * and process-directed signals, exit_group from a thread, raw clone() flags
 * (CLONE_SETTLS, CLONE_PARENT_SETTID, CLONE_CHILD_SETTID/CLEARTID), futex
 * wait/wake, sched_yield interleaving, timer preemption and affinity.
 */
#ifndef EL_THREADCHECK_H
#define EL_THREADCHECK_H

#include <stdint.h>

#include "check.h"

/* Raw futex: the kernel's answer (0, count or -errno). */
long tc_futex(volatile int *uaddr, int op, int val, const void *timeout);
long tc_gettid(void);
/* Every thread of this process on CPU 0 (the guest has one; on a host it makes yield and
 * preemption mean something).  Returns 0 or -errno. */
int tc_pin_cpu0(void);
void tc_nap_ms(long ms);

#define TC_FUTEX_WAIT 0
#define TC_FUTEX_WAKE 1
#define TC_FUTEX_PRIVATE 128

void tc_pthread(void);
void tc_signals(void);
void tc_exit(void);
void tc_clone(void);
void tc_futex_group(void);
void tc_sched(void);

#endif
