/*
 * The offsets of struct task the entry asm reads, checked against the
 * struct beside its definition (process.h).
 */
#ifndef EL_PROC_TASK_ASM_H
#define EL_PROC_TASK_ASM_H

#define TASK_WORK 12 /* uint32_t task.work: non-zero takes exit_to_user_work() */
#define TASK_WORK_FRAME_ASM 0x20 /* TASK_WORK_FRAME for the asm (checked in sys/syscall.c) */

#endif
