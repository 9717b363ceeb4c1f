/*
 * Task slots and kernel stacks (process.c): allocation for clone, the
 * release of what a task owned, and reaping.
 */
#ifndef EL_PROC_TASK_ALLOC_H
#define EL_PROC_TASK_ALLOC_H

#include "arch/x86_64/entry/frame_page.h"
#include "proc/process.h"

/*
 * The top of a task's C stack: the page boundary below its frame page, the
 * top page of the kernel stack, which holds the user trap frame and nothing
 * else (entry/frame_page.h).
 */
static inline uint64_t task_c_stack_top(const struct task *t)
{
	return t->stack_base + TASK_STACK_SIZE - FRAME_PAGE_SIZE;
}
_Static_assert(TASK_STACK_SIZE > FRAME_PAGE_SIZE, "a C stack below the frame page");

/* A free slot with a new pid and a kernel stack; NULL when none (-EAGAIN). */
struct task *task_alloc(void);
/* A zeroed file table with one reference (it is larger than a page), or NULL. */
struct files *files_alloc(void);
void files_free(struct files *f);
/* Frees the slot and the stack of a task that does not run (zombie reaped, failed clone). */
void task_free(struct task *t);
/* Frees tasks that died while running (DEAD), once the CPU left their stack. */
void task_reap_dead(void);
/* A new task's first moment on the CPU: CLONE_CHILD_SETTID. */
void task_first_run(struct task *t);
/*
 * Lays out a new task's kernel stack so that its first switch runs
 * ret_from_fork: the frame page zeroed below the frame (which the caller
 * filled), the switch frame below the frame page.
 */
void task_stack_init_fork(struct task *t);

#endif
