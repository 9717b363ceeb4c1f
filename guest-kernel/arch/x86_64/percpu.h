/*
 * Per-CPU data, reached through the GS base in kernel mode.  One CPU;
 * entries from user mode SWAPGS to find it, so it lives with the entry data
 * (mapped in the user page tables under PTI).  Offsets for asm are defined
 * here and checked.
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
#define PERCPU_ENTRY_FLAGS 48
#define PERCPU_SCRATCH 56
#define PERCPU_ENTRY_STACK_TOP 64
#define PERCPU_CR3_NOFLUSH 72
#define PERCPU_CURRENT 80 /* struct task *: the task on the CPU (proc/process.h) */
#define PERCPU_VDSO_BASE 88 /* uint64_t *: &current mm's vdso_base (exit_sysret.S) */
#define PERCPU_PCID 128 /* struct pcid_cpu (mm/pcid.h) */
#define PERCPU_KERNEL_CR3 (PERCPU_PCID + 0)
#define PERCPU_USER_CR3 (PERCPU_PCID + 8)
#define PERCPU_USER_CR3_STEADY (PERCPU_PCID + 16)

/* percpu.entry_flags: the entry/exit variants in effect (entry_config.c). */
#define EF_PTI 0x1            /* switch CR3 on every entry and exit (pti=on) */
#define EF_SYSRET 0x2         /* try SYSRET after exceptions and interrupts (entry.ret=sysret) */
#define EF_IRET_TRAMPOLINE 0x4 /* IRET from the entry stack (entry.irq_return=trampoline) */

#define ENTRY_STACK_SIZE 4096

#ifndef __ASSEMBLER__
#include "kernel.h"
#include "mm/pcid.h"

struct task;

struct percpu {
	struct percpu *self;     /* %gs:PERCPU_SELF */
	uint64_t top_of_stack;   /* kernel (task) stack for entries from user mode */
	uint64_t user_rsp;       /* scratch for the SYSCALL entry and the SYSRET exit */
	uint64_t nr_syscalls;    /* SYSCALL entries */
	uint64_t nr_page_faults; /* #PF, user and kernel mode */
	uint64_t nr_interrupts;  /* external interrupts and IPIs */
	uint64_t entry_flags;    /* EF_* */
	uint64_t scratch;        /* one register across the #DB entry from user mode */
	uint64_t entry_stack_top; /* the IRET trampoline's stack */
	uint64_t cr3_noflush;    /* CR3_NOFLUSH with PCID, else 0 (the paranoid exit) */
	struct task *current;     /* the task on the CPU: `current` */
	uint64_t *vdso_base;      /* -> the current mm's vdso_base (exit_sysret.c) */
	struct pcid_cpu pcid __aligned(64); /* CR3 values the entry and exit load */
};
_Static_assert(offsetof(struct percpu, self) == PERCPU_SELF, "percpu.self");
_Static_assert(offsetof(struct percpu, top_of_stack) == PERCPU_TOP_OF_STACK, "percpu.top");
_Static_assert(offsetof(struct percpu, user_rsp) == PERCPU_USER_RSP, "percpu.user_rsp");
_Static_assert(offsetof(struct percpu, nr_syscalls) == PERCPU_NR_SYSCALLS, "percpu.nr_syscalls");
_Static_assert(offsetof(struct percpu, nr_page_faults) == PERCPU_NR_PAGE_FAULTS,
	       "percpu.nr_page_faults");
_Static_assert(offsetof(struct percpu, nr_interrupts) == PERCPU_NR_INTERRUPTS,
	       "percpu.nr_interrupts");
_Static_assert(offsetof(struct percpu, entry_flags) == PERCPU_ENTRY_FLAGS, "percpu.entry_flags");
_Static_assert(offsetof(struct percpu, scratch) == PERCPU_SCRATCH, "percpu.scratch");
_Static_assert(offsetof(struct percpu, entry_stack_top) == PERCPU_ENTRY_STACK_TOP,
	       "percpu.entry_stack_top");
_Static_assert(offsetof(struct percpu, cr3_noflush) == PERCPU_CR3_NOFLUSH, "percpu.cr3_noflush");
_Static_assert(offsetof(struct percpu, current) == PERCPU_CURRENT, "percpu.current");
_Static_assert(offsetof(struct percpu, vdso_base) == PERCPU_VDSO_BASE, "percpu.vdso_base");
/* The asm tests entry_flags with testb: every EF_* bit is in its low byte. */
_Static_assert(((EF_PTI | EF_SYSRET | EF_IRET_TRAMPOLINE) & ~0xffull) == 0, "EF_* fit testb");
_Static_assert(offsetof(struct percpu, pcid) == PERCPU_PCID, "percpu.pcid");
_Static_assert(offsetof(struct percpu, pcid.kernel_cr3) == PERCPU_KERNEL_CR3,
	       "percpu.pcid.kernel_cr3");
_Static_assert(offsetof(struct percpu, pcid.user_cr3) == PERCPU_USER_CR3,
	       "percpu.pcid.user_cr3");
_Static_assert(offsetof(struct percpu, pcid.user_cr3_steady) == PERCPU_USER_CR3_STEADY,
	       "percpu.pcid.user_cr3_steady");

extern struct percpu cpu0;

/* GS base = &cpu0, KERNEL_GS_BASE = 0 (the user's, exchanged by SWAPGS). */
void percpu_init(void);

/*
 * The task stack entries from user mode use (at every task switch): SYSCALL
 * through percpu, exceptions and interrupts through TSS.RSP0, with and
 * without PTI; under PTI its frame page (entry/frame_page.h) becomes the one
 * the user page tables map (pti_map_frame_page()).
 */
void percpu_set_kernel_stack(uint64_t top);
#endif

#endif
