/*
 * forkcheck: fork, vfork, wait4, waitid, exit statuses and SIGCHLD as Linux
 * has them, checked from inside a static musl program.  A child reports its
 * own checks through its exit status (0: all held, else the number of the
 * first that failed), so nothing but fork, wait and exit is needed.
 */
#ifndef EL_FORKCHECK_H
#define EL_FORKCHECK_H

#include <sys/types.h>

#include "check.h"

/* Forks; the child runs fn and _exits with its result.  Returns the pid (or -1). */
pid_t fc_spawn(int (*fn)(void));
/* waitpid(pid, &status, 0), retried on EINTR; returns the status or -1. */
int fc_wait(pid_t pid);
/* Sleeps that long, EINTR or not. */
void fc_nap_ms(long ms);

void fc_fork(void);
void fc_wait_group(void);
void fc_vfork(void);
void fc_orphan(void);

#endif
