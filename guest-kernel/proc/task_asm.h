/*
 * The offsets of struct task (process.h) the entry asm reads, checked
 * against the struct in process.c.
 */
#ifndef EL_PROC_TASK_ASM_H
#define EL_PROC_TASK_ASM_H

#define TASK_WORK 12 /* uint32_t task.work: non-zero takes exit_to_user_work() */

#endif
