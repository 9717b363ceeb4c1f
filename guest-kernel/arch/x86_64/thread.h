/*
 * Per-thread CPU state the kernel keeps for user mode across switches: the
 * data segment selectors, the FS and GS bases, the FPU/SSE/AVX image, the
 * I/O permission state, the hardware breakpoints (hw_breakpoint.c: in the
 * CPU only while a task that has some runs).  The general registers, CS
 * and SS live in the trap frame on the task's kernel stack; the
 * callee-saved kernel registers on it too, pushed by switch_stacks.
 *
 * While a thread runs, the CPU holds its state and these fields may be
 * stale; while it does not (switched out: stopped, blocked, runnable),
 * they are the truth, and ptrace and the signal code may read and write
 * them.  arch_save_user_state()/arch_load_user_state() move it between the
 * two for the running thread.
 *
 * Switches are eager (arch_task_switch): the outgoing thread's state is
 * saved and the incoming one's loaded, FPU image included (FXSAVE or XSAVE
 * as fpu.c chose), with the incoming process's LDT (ldt.c), its GDT TLS
 * entries (tls.c) and I/O bitmap (ioport.c).  Selectors and bases as
 * Linux's save_fsgs/x86_fsgsbase_load:
 *   with FSGSBASE   the selector is reloaded, then the saved base written
 *                   (user code may have set either independently);
 *   without         a null selector (0-3) gets the saved base written; a
 *                   real one is just reloaded, its base coming from the
 *                   descriptor, as it would in user mode.
 * A selector that no longer loads (its LDT entry was cleared) becomes the
 * null selector, as with Linux's loadsegment().
 */
#ifndef EL_ARCH_THREAD_H
#define EL_ARCH_THREAD_H

/* Pure types only: the host unit tests include it (ptrace_regs.h). */
#include <stdbool.h>
#include <stdint.h>

#include "hw_breakpoint.h"

struct task;
struct io_bitmap;

struct thread_arch {
	uint64_t fsbase;    /* user FS base (MSR_FS_BASE while it runs) */
	uint64_t gsbase;    /* user GS base (MSR_KERNEL_GS_BASE while it runs in the kernel) */
	uint16_t fsindex, gsindex; /* user FS/GS selectors (0 unless user code loaded one) */
	uint16_t ds, es;    /* user DS/ES selectors (ignored for addressing in 64-bit mode) */
	uint64_t tls[3];    /* GDT entries 12-14 while it runs (set_thread_area: tls.c) */
	void *fpu;          /* fpu_state_size() bytes, 64-byte aligned: the saved x87/SSE/AVX image */
	struct io_bitmap *io_bitmap; /* ioperm(2) (ioport.c), NULL while no port is allowed */
	uint32_t iopl;      /* iopl(2) level, emulated: 3 = every port; RFLAGS.IOPL stays 0 */
	bool iopl_warned;   /* the CLI/STI-under-iopl(3) line was printed */
	struct hwbp_state hwbp; /* DR0-DR3, DR6, DR7 (hw_breakpoint.c) */
};

/*
 * A new task's state (fork/clone): a copy of the parent's user state, FPU
 * image included (the parent's live state when it is current), sharing its
 * I/O bitmap.  0 or -ENOMEM.
 */
int arch_task_init(struct task *child, const struct task *parent);
/* Frees what arch_task_init allocated. */
void arch_task_release(struct task *t);
/*
 * exec (t is current, t->mm already the new address space): null DS, ES,
 * FS, GS with zero bases (DS = ES = USER_DS for an i386 program, mm->ia32),
 * the FPU's initial state, the new (empty) LDT.
 * I/O permissions (ioperm, iopl) survive, as on Linux.
 */
void arch_exec_reset(struct task *t);
/* Before the switch from prev to next (both may be the same task: nothing to do). */
void arch_task_switch(struct task *prev, struct task *next);

/*
 * The user state of the running thread t (== current) as the CPU holds it,
 * into t->arch; and t->arch into the CPU (after a change to it, e.g. a
 * sigreturn that restored the FPU image).
 */
void arch_save_user_state(struct task *t);
void arch_load_user_state(struct task *t);

#endif
