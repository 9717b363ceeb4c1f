/*
 * Syscall dispatch: the table call, the unknown-number path, the work on
 * the way out and the SYSRET decision.
 *
 * The fast path is one test of current->work (and of TF/RF in the saved
 * RFLAGS) after the handler: a frame that nobody touched and no pending
 * work return by SYSRET at once.  Everything else takes the slow path: the
 * pending work (signals, rescheduling, ptrace stops), then Linux's checks
 * of do_syscall_64(), since the frame may have been rewritten (signal
 * delivery, rt_sigreturn, exec, ptrace; such syscalls set TASK_WORK_FRAME):
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
#include "proc/ptrace.h"
#include "proc/sched.h"
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

static long syscall_call(struct trap_frame *tf, uint32_t nr)
{
	syscall_fn *fn = nr < NR_SYSCALLS ? syscall_table[nr] : 0;

	if (__builtin_expect(fn != 0, 1))
		return fn(tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9);
	return syscall_unknown(tf, nr);
}

static int sysret_allowed(const struct trap_frame *tf)
{
	return (tf->rcx == tf->rip) & (tf->r11 == tf->rflags) & (tf->cs == USER_CS) &
	       (tf->ss == USER_DS) & (tf->rip < TASK_SIZE_MAX) &
	       !(tf->rflags & (RFLAGS_TF | RFLAGS_RF));
}

/* The slow way out: work, then the full SYSRET check on what the frame now holds. */
static __attribute__((noinline)) int syscall_exit_slow(struct trap_frame *tf)
{
	struct task *t = current;

	if (t->work & (TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP))
		ptrace_syscall_exit(tf);
	t->work &= ~TASK_WORK_FRAME;
	if (t->work)
		exit_to_user_work(tf);
	return sysret_allowed(tf);
}

/*
 * ptrace's syscall-entry stop, as Linux has it: RAX reads -ENOSYS during
 * the stop, the number is orig_rax afterwards (the tracer may change it),
 * and -1 skips the call, leaving whatever RAX the tracer set.
 */
static __attribute__((noinline)) int syscall_traced(struct trap_frame *tf)
{
	tf->rax = (uint64_t)-ENOSYS;
	if (ptrace_syscall_entry(tf)) {
		int nr = (int)tf->error;

		if (nr != -1)
			tf->rax = (uint64_t)syscall_call(tf, (uint32_t)nr);
	}
	return syscall_exit_slow(tf);
}

int syscall_dispatch(struct trap_frame *tf)
{
	struct task *t = current;

	if (__builtin_expect(t->work & TASK_WORK_SYSCALL_TRACE, 0))
		return syscall_traced(tf);
	/* Linux uses the low 32 bits of RAX as the number. */
	tf->rax = (uint64_t)syscall_call(tf, (uint32_t)tf->rax);
	if (__builtin_expect(!(t->work | (tf->r11 & (RFLAGS_TF | RFLAGS_RF))), 1))
		return 1;
	return syscall_exit_slow(tf);
}
