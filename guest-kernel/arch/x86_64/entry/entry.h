/*
 * The entry asm's symbols that C uses (entry.S, entry_syscall.S,
 * entry_irq.S).  The C functions the asm calls are declared with their
 * subsystems: trap_dispatch(), bad_iret_frame() and page_fault() in traps.h,
 * the syscall table, syscall_slow_entry() and syscall_exit_slow() in
 * sys/syscall.h, exit_to_user_work() in proc/sched.h, the interrupt
 * handlers in irq.h.
 */
#ifndef EL_ENTRY_ENTRY_H
#define EL_ENTRY_ENTRY_H

#include "arch/x86_64/entry/trapframe.h"
#include "kernel.h"

/* entry.S: the exception stubs by vector, for the IDT (idt.c). */
extern const uint64_t trap_stubs[NR_EXCEPTIONS];

/* entry_irq.S: the interrupt stubs irq.c installs, without and with PTI. */
extern const char irq_stub_self_ipi[], irq_stub_timer[], irq_stub_spurious[];
extern const char irq_stub_self_ipi_pti[], irq_stub_timer_pti[], irq_stub_spurious_pti[];

/* entry.S: the #PF entries, without and with PTI (idt.c). */
extern const char page_fault_entry[], page_fault_entry_pti[];

/* entry_syscall.S: the LSTAR targets, without and with PTI (syscall_init.c). */
extern char entry_SYSCALL_64[], entry_SYSCALL_64_pti[];

/* entry_compat.S: int $0x80 (idt.c: IA32_SYSCALL_VECTOR, DPL 3), CSTAR and SYSENTER targets. */
extern const char entry_INT80_compat[];
extern char entry_SYSCALL_compat[], entry_SYSENTER_compat[];

/* Enters user mode with the registers of tf (on the kernel stack top); never returns. */
__noreturn void enter_user(struct trap_frame *tf);

#endif
