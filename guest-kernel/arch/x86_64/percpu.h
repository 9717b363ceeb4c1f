/*
 * Per-CPU data, reached through the GS base in kernel mode.  One CPU today;
 * user entries (SYSCALL) will SWAPGS to find it, so it lives with the entry
 * data.  Offsets for asm are defined here and checked.
 */
#ifndef EL_PERCPU_H
#define EL_PERCPU_H

#define PERCPU_SELF 0
#define PERCPU_TOP_OF_STACK 8
#define PERCPU_USER_RSP 16

#ifndef __ASSEMBLER__
#include "kernel.h"

struct percpu {
	struct percpu *self;    /* %gs:PERCPU_SELF */
	uint64_t top_of_stack;  /* kernel stack for entries from user mode */
	uint64_t user_rsp;      /* scratch for the SYSCALL entry */
};
_Static_assert(offsetof(struct percpu, self) == PERCPU_SELF, "percpu.self");
_Static_assert(offsetof(struct percpu, top_of_stack) == PERCPU_TOP_OF_STACK, "percpu.top");
_Static_assert(offsetof(struct percpu, user_rsp) == PERCPU_USER_RSP, "percpu.user_rsp");

extern struct percpu cpu0;

/* GS base = &cpu0, KERNEL_GS_BASE = 0 (the user's, exchanged by SWAPGS). */
void percpu_init(void);
#endif

#endif
