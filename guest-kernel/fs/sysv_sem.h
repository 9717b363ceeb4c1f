/* System V semaphores (sysv_sem.c): what the rest of the kernel calls. */
#ifndef EL_FS_SYSV_SEM_H
#define EL_FS_SYSV_SEM_H

/*
 * The process tgid ended (its last thread): applies and drops its SEM_UNDO
 * adjustments, as Linux's exit_sem, before the parent hears of the exit.
 */
void sem_exit_process(int tgid);

#endif
