/*
 * The C side of the SYSCALL entry (entry_syscall.S) and the syscall table.
 * NR_SYSCALLS is for the asm too (its bounds check).
 */
#ifndef EL_SYS_SYSCALL_H
#define EL_SYS_SYSCALL_H

#define NR_SYSCALLS 1024 /* table size: Linux's numbers and entrylab's 1000+ */

#ifndef __ASSEMBLER__
#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"
#include "sys/syscalls.h"

/*
 * Indexed by the number (the low 32 bits of RAX) and called from the asm
 * with the arguments in registers; never NULL: numbers without a handler
 * hold sys_ni_syscall (-ENOSYS, counted), handlers that need the complete
 * user frame are reached through their ptregs_ stub (entry_syscall.S).
 */
extern syscall_fn *const syscall_table[NR_SYSCALLS];

/*
 * entry_syscall.S: stubs that complete the user frame (callee-saved
 * registers, RCX/R11 copies, CS, SS, vector), set TASK_WORK_FRAME and jump
 * to sys_<name>; for the handlers that read or rewrite the whole frame.
 */
extern syscall_fn ptregs_sys_clone, ptregs_sys_fork, ptregs_sys_vfork, ptregs_sys_execve,
	ptregs_sys_rt_sigreturn;

/*
 * The slow entry (entry_syscall.S, with the frame complete): ptrace's
 * syscall stops, numbers past the table, TF/RF in the user RFLAGS, any
 * current->work.  Runs the call, stores its result in the frame's RAX and
 * returns syscall_exit_slow()'s answer.
 */
int syscall_slow_entry(struct trap_frame *tf);

/*
 * The slow exit (entry_syscall.S, with the frame complete and the result in
 * its RAX): ptrace's syscall-exit stop, exit_to_user_work(), then Linux's
 * SYSRET checks on what the frame now holds.  Returns non-zero when SYSRET
 * may restore the frame, 0 for IRET.
 */
int syscall_exit_slow(struct trap_frame *tf);

/* Calls of numbers without a handler so far (guest.unknown_syscalls). */
uint64_t syscall_unknown_count(void);
#endif

#endif
