/*
 * Per-thread CPU state the kernel keeps for user mode across switches: the
 * FS and GS bases, the FPU/SSE/AVX image, the I/O permission state.  The
 * general registers live in the trap frame on the task's kernel stack; the
 * callee-saved kernel registers on it too, pushed by switch_to.
 *
 * Switches are eager: arch_task_switch() saves the outgoing thread's user
 * state and loads the incoming one's (FXSAVE or XSAVE as fpu.c chose).
 */
#ifndef EL_ARCH_THREAD_H
#define EL_ARCH_THREAD_H

#include "kernel.h"

struct task;

struct thread_arch {
	uint64_t fsbase;  /* user FS base (MSR_FS_BASE while it runs) */
	uint64_t gsbase;  /* user GS base (MSR_KERNEL_GS_BASE while it runs in the kernel) */
	uint16_t fsindex, gsindex; /* user FS/GS selectors (0 unless an LDT/GDT selector was loaded) */
	uint16_t ds, es;
	void *fpu;        /* fpu_state_size() bytes, 64-byte aligned: the saved x87/SSE/AVX image */
	uint8_t *io_bitmap; /* ioperm: 8 KiB + 1, NULL while no port is allowed */
	unsigned iopl;    /* iopl(2) level, also in the frame's RFLAGS.IOPL */
};

/* A new task's state: a copy of the current thread's (fork/clone); 0 or -ENOMEM. */
int arch_task_init(struct task *child, const struct task *parent);
/* Frees what arch_task_init allocated. */
void arch_task_release(struct task *t);
/* exec: no FS/GS base, default x87 and SSE control words, no I/O permissions. */
void arch_exec_reset(struct task *t);
/* Before the switch from prev to next (both may be the same task: nothing to do). */
void arch_task_switch(struct task *prev, struct task *next);

/*
 * The user state of current as the CPU holds it now, into current->arch
 * (ptrace and the signal frame read it from there); and back.
 */
void arch_save_user_state(struct task *t);
void arch_load_user_state(struct task *t);

#endif
