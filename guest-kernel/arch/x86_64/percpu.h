/*
 * Per-CPU data, reached through the GS base in kernel mode.  One CPU today;
 * user entries (SYSCALL) SWAPGS to find it, so it lives with the entry data.
 * Offsets for asm are defined here and checked.
 *
 * The event counters count always (one increment on the hot path, no
 * branch); the region markers zero them at begin and read them at end.
 */
#ifndef EL_PERCPU_H
#define EL_PERCPU_H

#define PERCPU_SELF 0
#define PERCPU_TOP_OF_STACK 8
#define PERCPU_USER_RSP 16
#define PERCPU_NR_SYSCALLS 24
#define PERCPU_NR_PAGE_FAULTS 32
#define PERCPU_NR_INTERRUPTS 40

#ifndef __ASSEMBLER__
#include "kernel.h"

struct percpu {
	struct percpu *self;     /* %gs:PERCPU_SELF */
	uint64_t top_of_stack;   /* kernel stack for entries from user mode */
	uint64_t user_rsp;       /* scratch for the SYSCALL entry */
	uint64_t nr_syscalls;    /* SYSCALL entries */
	uint64_t nr_page_faults; /* #PF, user and kernel mode */
	uint64_t nr_interrupts;  /* external interrupts and IPIs */
};
_Static_assert(offsetof(struct percpu, self) == PERCPU_SELF, "percpu.self");
_Static_assert(offsetof(struct percpu, top_of_stack) == PERCPU_TOP_OF_STACK, "percpu.top");
_Static_assert(offsetof(struct percpu, user_rsp) == PERCPU_USER_RSP, "percpu.user_rsp");
_Static_assert(offsetof(struct percpu, nr_syscalls) == PERCPU_NR_SYSCALLS, "percpu.nr_syscalls");
_Static_assert(offsetof(struct percpu, nr_page_faults) == PERCPU_NR_PAGE_FAULTS,
	       "percpu.nr_page_faults");
_Static_assert(offsetof(struct percpu, nr_interrupts) == PERCPU_NR_INTERRUPTS,
	       "percpu.nr_interrupts");

extern struct percpu cpu0;

/* GS base = &cpu0, KERNEL_GS_BASE = 0 (the user's, exchanged by SWAPGS). */
void percpu_init(void);

/* The stack entries from user mode use (SYSCALL via percpu, exceptions via TSS.RSP0). */
void percpu_set_kernel_stack(uint64_t top);
#endif

#endif
