/*
 * The frame page: the top page of every task's kernel stack.  Its last
 * TF_SIZE bytes are the task's user trap frame (task_user_frame()); the
 * rest of it stays zero.  The C code of every entry from user mode runs
 * below it, from FRAME_PAGE_C_TOP down, so the page never holds anything
 * but the user's own registers.  That is what lets page-table isolation
 * map it in the user page tables while the task is current (mm/pti.c):
 * the CPU pushes the hardware frame straight onto it (TSS.RSP0 = the
 * stack top, as without PTI) and the entry saves the registers there
 * before the switch to the kernel CR3, with nothing to copy either way.
 *
 * For asm and C.
 */
#ifndef EL_ENTRY_FRAME_PAGE_H
#define EL_ENTRY_FRAME_PAGE_H

#include "arch/x86_64/entry/trapframe.h"

#define FRAME_PAGE_SIZE 4096
/* From RSP -> the trap frame at the stack top down to the C stack's top (stack top - a page). */
#define FRAME_PAGE_GAP (FRAME_PAGE_SIZE - TF_SIZE)

#ifndef __ASSEMBLER__
/* The C stack starts 16-byte aligned at the page boundary below the frame page. */
_Static_assert(FRAME_PAGE_GAP % 16 == 0, "FRAME_PAGE_GAP keeps RSP 16-byte aligned");
_Static_assert(FRAME_PAGE_GAP > 0, "the trap frame fits the frame page");
#endif

#endif
