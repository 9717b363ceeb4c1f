/*
 * Syscall dispatch: the table call, the unknown-number path, and the
 * SYSRET decision.  SYSRET is taken only when it restores exactly what the
 * frame holds, as Linux checks in do_syscall_64():
 *   RCX == RIP and R11 == RFLAGS (SYSRET takes RIP and RFLAGS from them),
 *   CS and SS are the STAR selectors, RIP is below TASK_SIZE_MAX (canonical,
 *   and not the last user page: Intel's SYSRET #GP on a non-canonical RCX
 *   would be taken in ring 0 on the user stack), neither TF (the trap would
 *   come right after SYSRET) nor RF (SYSRET cannot restore it).
 * Otherwise the IRET path restores the frame as it is.
 */
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscall.h"
#include "sys/uaccess_range.h"

#define REPORT_FIRST_UNKNOWN 16

static uint64_t unknown_calls;
static uint64_t reported[NR_SYSCALLS / 64];
static unsigned nr_reported;

/* Out of line: the hot path stays a bounds check and an indirect call. */
static __attribute__((noinline)) long syscall_unknown(const struct trap_frame *tf, uint32_t nr)
{
	unknown_calls++;
	if (nr < NR_SYSCALLS && (reported[nr / 64] & BIT(nr % 64)))
		return -ENOSYS;
	if (nr < NR_SYSCALLS)
		reported[nr / 64] |= BIT(nr % 64);
	if (nr_reported++ < REPORT_FIRST_UNKNOWN)
		kprintf("%s[%d]: unknown syscall %d (rip %lx): -ENOSYS\n", current->comm,
			current->pid, (int)nr, tf->rip);
	return -ENOSYS;
}

uint64_t syscall_unknown_count(void)
{
	return unknown_calls;
}

int syscall_dispatch(struct trap_frame *tf)
{
	/* Linux uses the low 32 bits of RAX as the number. */
	uint32_t nr = (uint32_t)tf->rax;
	syscall_fn *fn = nr < NR_SYSCALLS ? syscall_table[nr] : 0;

	if (__builtin_expect(fn != 0, 1))
		tf->rax = (uint64_t)fn(tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9);
	else
		tf->rax = (uint64_t)syscall_unknown(tf, nr);
	return (tf->rcx == tf->rip) & (tf->r11 == tf->rflags) & (tf->cs == USER_CS) &
	       (tf->ss == USER_DS) & (tf->rip < TASK_SIZE_MAX) &
	       !(tf->rflags & (RFLAGS_TF | RFLAGS_RF));
}
