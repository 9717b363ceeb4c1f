/*
 * Task slots and kernel stacks (process.c): allocation for clone, the
 * release of what a task owned, and reaping.
 */
#ifndef EL_PROC_TASK_ALLOC_H
#define EL_PROC_TASK_ALLOC_H

#include "proc/process.h"

/* A free slot with a new pid and a kernel stack; NULL when none (-EAGAIN). */
struct task *task_alloc(void);
/* Frees the slot and the stack of a task that does not run (zombie reaped, failed clone). */
void task_free(struct task *t);
/* Frees tasks that died while running (DEAD), once the CPU left their stack. */
void task_reap_dead(void);
/* A new task's first moment on the CPU: CLONE_CHILD_SETTID. */
void task_first_run(struct task *t);
/* Lays out a new task's kernel stack so that its first switch runs ret_from_fork. */
void task_stack_init_fork(struct task *t);

#endif
