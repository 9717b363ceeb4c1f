/*
 * The tracer's view of a tracee's registers: Linux's struct
 * user_regs_struct (27 words, sys/user.h) and the start of struct user
 * (PEEKUSER offsets), mapped onto the trap frame and the thread state, with
 * Linux's rules for what a tracer may write (arch/x86/kernel/ptrace.c
 * putreg: RPL-3 selectors, the user-changeable RFLAGS bits, bases below
 * TASK_SIZE_MAX).  Pure C: the host unit tests compile it.
 */
#ifndef EL_PROC_PTRACE_REGS_H
#define EL_PROC_PTRACE_REGS_H

#include <stdbool.h>
#include <stdint.h>

/* Relative: the host unit tests compile this file too. */
#include "../arch/x86_64/thread.h"
#include "../arch/x86_64/entry/trapframe.h"

enum user_reg {
	UREG_R15, UREG_R14, UREG_R13, UREG_R12, UREG_RBP, UREG_RBX, UREG_R11, UREG_R10,
	UREG_R9, UREG_R8, UREG_RAX, UREG_RCX, UREG_RDX, UREG_RSI, UREG_RDI, UREG_ORIG_RAX,
	UREG_RIP, UREG_CS, UREG_EFLAGS, UREG_RSP, UREG_SS, UREG_FS_BASE, UREG_GS_BASE,
	UREG_DS, UREG_ES, UREG_FS, UREG_GS, UREG_COUNT
};

#define USER_REGS_SIZE (UREG_COUNT * 8)  /* sizeof(struct user_regs_struct) = 216 */
#define USER_DEBUGREG_OFFSET 848         /* offsetof(struct user, u_debugreg) */
#define USER_SIZE 912                    /* sizeof(struct user) */
#define PTRACE_TASK_SIZE_MAX 0x00007ffffffff000ull

/* RFLAGS bits a tracer (and sigreturn) may change: Linux's FLAG_MASK. */
#define PTRACE_FLAG_MASK 0x50dd5ull /* CF PF AF ZF SF TF DF OF RF AC */
#define PTRACE_RFLAGS_TF 0x100ull

/* The value of register idx (PEEKUSER / GETREGS); forced_tf hides a TF ptrace set. */
uint64_t ptrace_getreg(const struct trap_frame *tf, const struct thread_arch *a, unsigned idx,
		       bool forced_tf);
/*
 * Writes register idx (POKEUSER / SETREGS): 0 or -5 (EIO) for a value
 * Linux refuses.  *forced_tf drops when the tracer writes RFLAGS itself.
 */
int ptrace_putreg(struct trap_frame *tf, struct thread_arch *a, unsigned idx, uint64_t v,
		  bool *forced_tf);

#endif
