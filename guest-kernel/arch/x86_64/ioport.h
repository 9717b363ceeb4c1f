/*
 * User port I/O permissions (ioport.c): ioperm(2) and iopl(2) as Linux 6.1
 * has them.  Both work through the TSS I/O bitmap (desc.h), never through
 * RFLAGS.IOPL, so CLI/STI stay privileged:
 *   ioperm(from, num, on)  a per-thread bitmap, shared with fork children
 *                          until either side changes it;
 *   iopl(3)                every port (the TSS's all-zero bitmap); levels
 *                          0-2 take it back.  A CLI or STI under iopl(3)
 *                          #GPs and is then skipped as a NOP, with one
 *                          console line per thread (Linux's
 *                          fixup_iopl_exception).
 * Both survive fork and exec.
 */
#ifndef EL_ARCH_IOPORT_H
#define EL_ARCH_IOPORT_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

struct task;
struct io_bitmap;

/* fork: the child shares the parent's bitmap (arch_task_init copied the pointer). */
void io_bitmap_get(struct io_bitmap *bm);
/* Drops a task's reference (task release). */
void io_bitmap_put(struct io_bitmap *bm);

/* The TSS bitmap selection for t, about to run in user mode (switch, syscalls). */
void tss_io_load(const struct task *t);

/*
 * A user #GP on CLI or STI by a thread at iopl(3): skips the instruction
 * and returns true (no signal); false for every other #GP.
 */
bool ioport_fixup_cli_sti(struct trap_frame *tf);

#endif
