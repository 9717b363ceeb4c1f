/*
 * Hardware breakpoints of user tasks (hw_breakpoint.c): DR0-DR3, DR6, DR7
 * as a tracer sees them through PTRACE_PEEKUSER/POKEUSER (struct user's
 * u_debugreg), armed in the CPU while their task runs, and the #DB they
 * raise.  Pure types here: thread.h, which the host unit tests include,
 * embeds struct hwbp_state.
 */
#ifndef EL_ARCH_HW_BREAKPOINT_H
#define EL_ARCH_HW_BREAKPOINT_H

#include <stdint.h>

/*
 * One task's breakpoints, Linux's thread_struct ptrace_bps[], virtual_dr6
 * and ptrace_dr7: a slot exists once the tracer wrote its address or
 * enabled it in DR7 (`present`; a slot of Linux's that has its perf event),
 * and keeps its RW/LEN bits (`ctl`, DR7's 4-bit field) from then on.
 */
struct hwbp_state {
	uint64_t addr[4];     /* DR0-DR3 */
	uint64_t virtual_dr6; /* what the tracer reads as DR6, positive polarity (0: nothing) */
	uint64_t ptrace_dr7;  /* DR7 as the tracer last wrote it successfully */
	uint64_t dr7;         /* what the CPU gets while the task runs; 0: nothing armed */
	uint8_t present;      /* slots that exist (bit i: DRi) */
	uint8_t enabled;      /* slots armed (a subset of present) */
	uint8_t ctl[4];       /* each slot's RW (bits 0-1) and LEN (bits 2-3) */
};


struct task;
struct trap_frame;

/* PEEKUSER of DR<n> (0-7): the value Linux's ptrace_get_debugreg() returns. */
uint64_t hwbp_get(const struct task *t, unsigned n);
/*
 * POKEUSER of DR<n>: 0, -EIO (DR4, DR5), -EINVAL (a kernel address, a
 * length the address is not aligned to, an I/O or sized execute breakpoint:
 * the state is left as it was).
 */
int hwbp_set(struct task *t, unsigned n, uint64_t v);
/* fork/clone: the child has no breakpoints (DR6 and DR7's words come along, as on Linux). */
void hwbp_fork(struct task *child);
/* exec (t == current): every breakpoint gone, DR6 and DR7 read 0; the CPU disarmed. */
void hwbp_exec(struct task *t);
/* Task switch: next's breakpoints into the CPU, or DR7 := 0 if it has none and some were armed. */
void hwbp_switch(const struct task *next);
/*
 * #DB (debug.c), dr6 the CPU's DR6 in positive polarity.  From user mode:
 * Linux's exc_debug_user(): the hits of armed slots into current's
 * virtual_dr6 (with RF set after an execute breakpoint); returns the DR6 to
 * report in the SIGTRAP (positive), or ~0 for none.  From kernel mode (a
 * user watchpoint hit by a uaccess copy, or by MOV SS held over to the
 * entry's first instruction): consumed, no signal, returns ~0.
 */
uint64_t hwbp_debug(struct trap_frame *tf, uint64_t dr6);
/*
 * The console line of the run report (report.c), when there was any: the
 * #DBs of user breakpoints taken in kernel mode, and how many of them came
 * on the first instruction of an entry (the IDT's gates, LSTAR): the MOV SS
 * case, where the CPU holds the #DB over the SYSCALL or INT.
 */
void hwbp_print_stats(void);

#endif
