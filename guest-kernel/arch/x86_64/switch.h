/*
 * The kernel stack switch between tasks (switch.S) and the frame it keeps
 * on the stack of a task that is switched out:
 *   [saved RSP + 0]   R15, R14, R13, R12, RBX, RBP  (SWITCH_FRAME_WORDS words)
 *   [saved RSP + 48]  the return address of switch_stacks (ret_from_fork
 *                     for a task that has never run: process.c)
 * switch.S checks at assembly time that it pushes SWITCH_FRAME_WORDS words.
 */
#ifndef EL_ARCH_SWITCH_H
#define EL_ARCH_SWITCH_H

#define SWITCH_FRAME_WORDS 6

#ifndef __ASSEMBLER__
#include <stdint.h>

/* Saves the callee-saved registers and RSP in *save_rsp, continues on next_rsp. */
void switch_stacks(uint64_t *save_rsp, uint64_t next_rsp);

/* Where a new task's first switch_stacks returns: sched_tail_fork(), then user mode. */
extern const char ret_from_fork[];
#endif

#endif
