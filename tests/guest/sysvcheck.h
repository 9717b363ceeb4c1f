/*
 * sysvcheck: System V message queues and semaphores as Linux has them
 * (msgget(2), msgsnd(2), msgctl(2), semget(2), semop(2), semctl(2)).
 * One file per area, each a function main calls:
 *   sysvcheck_msg.c   queues: keys, types, limits, blocking, EINTR, EIDRM, msgctl
 *   sysvcheck_sem.c   semaphores: semop arrays, undo, waits, limits, semctl
 * Runs on a Linux host too.
 */
#ifndef EL_SYSVCHECK_H
#define EL_SYSVCHECK_H

#include <sys/types.h>

#include "check.h"

void sysvcheck_msg(void);
void sysvcheck_sem(void);

/* A key no other run uses at once: base plus our pid. */
int sv_key(int base);
/* Waits for pid: its wait status, -1 when wait fails. */
int sv_wait(pid_t pid);
/* Sleeps ms milliseconds (restarting after signals). */
void sv_sleep_ms(long ms);
/* main catches SIGUSR1 (an empty handler, SA_RESTART): children interrupted by it. */

#endif
