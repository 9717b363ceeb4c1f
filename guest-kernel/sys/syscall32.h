/*
 * The compat (i386) syscall ABI: the table (sys/syscall_table32.c) and the
 * C half of its entries (sys/syscall32.c; the asm: arch/x86_64/entry/
 * entry_compat.S).
 */
#ifndef EL_SYS_SYSCALL32_H
#define EL_SYS_SYSCALL32_H

#define NR_COMPAT_SYSCALLS 512 /* Linux i386's numbers end below 460 */

#ifndef __ASSEMBLER__
#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"
#include "sys/syscalls.h"

/*
 * Indexed by the i386 number (EAX), called with EBX ECX EDX ESI EDI EBP
 * zero-extended; never NULL (sys_ni_syscall fills the gaps).
 */
extern syscall_fn *const compat_syscall_table[NR_COMPAT_SYSCALLS];

/*
 * do_int80_syscall: the C half of int $0x80 (entry_compat.S).
 * In:  tf = the complete user frame at the task stack top, vector
 *      TF_VECTOR_SYSCALL32, error = the number (EAX, zero-extended);
 *      kernel GS and CR3, IF = 0.
 * Out: the result in tf->rax (sign-extended), ptrace's syscall stops done;
 *      current->work is left for the exit (exit_to_user), which IRETs or,
 *      from 64-bit code with entry.ret=sysret, SYSRETs.
 */
void do_int80_syscall(struct trap_frame *tf);

/*
 * do_fast_syscall_32: the C half of compat SYSCALL and SYSENTER.
 * In:  as do_int80_syscall, but the frame's RIP is the vdso32 landing pad
 *      already and EBP (argument 6) is still to be read from the user stack
 *      (the user EBP that __kernel_vsyscall pushed, at ESP).
 * Out: as do_int80_syscall, the exit work done too; returns non-zero when
 *      the frame may leave by SYSRETL / SYSEXIT (entry_compat.S), 0 for IRET.
 */
int do_fast_syscall_32(struct trap_frame *tf);
#endif

#endif
