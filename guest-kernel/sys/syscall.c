/*
 * The C half of the SYSCALL path (entry_syscall.S): the slow entry and
 * exit, the unknown-number path and the SYSRET decision.
 *
 * Fast path (all in asm, no C but the handler).  The entry stores only what
 * the handler may clobber and the user needs back, at their trap_frame
 * offsets in the frame at the top of the task stack: RDI RSI RDX R8 R9 R10,
 * RIP (from RCX), RFLAGS (from R11), RSP and orig RAX (the error slot).  The
 * callee-saved RBX RBP R12-R15 stay in their registers across the C call;
 * the RCX/R11/RAX copies, CS, SS and the vector slot are left as they were.
 * With no current->work, no TF/RF in the user RFLAGS and a number inside
 * the table, the asm calls syscall_table[EAX] with the arguments still in
 * registers (R10 -> RCX), and if current->work is still 0 afterwards it
 * SYSRETs with the RCX/R11 the SYSCALL instruction gave (a frame nobody
 * touched, so Linux's equality checks are known to hold).
 *
 * Complete frame.  Everything else sees the whole frame, which
 * syscall_complete_frame (entry_syscall.S) fills in from the live
 * registers; it then sets TASK_WORK_FRAME, which therefore means "the frame
 * is complete (and may have been rewritten): don't complete it again, and
 * check it fully before SYSRET":
 *   - the slow entry (syscall_slow_entry): ptrace syscall tracing, TF/RF in
 *     the user RFLAGS, any other current->work, numbers past the table;
 *   - handlers that read or rewrite the whole user frame, reached through
 *     their ptregs_ stub in the table (Linux's stub_ptregs before 4.16):
 *     clone, fork and vfork copy it to the child, execve replaces it,
 *     rt_sigreturn restores it from the signal frame.  (sigaltstack reads
 *     only the saved RSP; ptrace and process_vm_* touch stopped tasks'
 *     frames, never the caller's, and a tracee stops only on the slow paths.)
 *   - the slow exit (current->work non-zero after the handler: signals,
 *     rescheduling, ptrace stops, TASK_WORK_FRAME): completed unless
 *     TASK_WORK_FRAME says it already is, the result stored in its RAX, then
 *     syscall_exit_slow().
 * A task blocked in a fast-path handler has a partial frame, and nothing
 * reads it: signals and stops reach it only through its slow exit.
 *
 * Slow exit: the work, then Linux's checks of do_syscall_64(), since the
 * frame may have been rewritten (signal delivery, rt_sigreturn, exec,
 * ptrace):
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
#include "proc/task_asm.h"
#include "sys/errno.h"
#include "sys/syscall.h"
#include "sys/uaccess_range.h"

/* What entry_syscall.S relies on besides trapframe.h's and percpu.h's offsets. */
_Static_assert(TASK_WORK_FRAME_ASM == TASK_WORK_FRAME, "TASK_WORK_FRAME: proc/task_asm.h");
_Static_assert(sizeof(syscall_table[0]) == 8, "call *syscall_table(,%rax,8)");

#define REPORT_FIRST_UNKNOWN 16

static uint64_t unknown_calls;
static uint64_t reported[NR_SYSCALLS / 64];
static unsigned nr_reported;

/*
 * Out of line: the hot path stays a bounds check and an indirect call.  Also
 * the compat table's filler (sys/syscall32.c): i386 numbers are counted but
 * not deduplicated (the bitmap is by 64-bit number).
 */
static __attribute__((noinline)) long syscall_unknown(const struct trap_frame *tf, uint32_t nr)
{
	bool i386 = tf->vector == TF_VECTOR_SYSCALL32;

	unknown_calls++;
	if (!i386 && nr < NR_SYSCALLS && (reported[nr / 64] & BIT(nr % 64)))
		return -ENOSYS;
	if (!i386 && nr < NR_SYSCALLS)
		reported[nr / 64] |= BIT(nr % 64);
	if (nr_reported++ < REPORT_FIRST_UNKNOWN)
		kprintf("%s[%d]: unknown %ssyscall %d (rip %lx): -ENOSYS\n", current->comm,
			current->pid, i386 ? "i386 " : "", (int)nr, tf->rip);
	return -ENOSYS;
}

/* The table's filler: the number is the frame's orig RAX, saved on every entry. */
SYSCALL_DEFINE0(ni_syscall)
{
	const struct trap_frame *tf = task_user_frame(current);

	return syscall_unknown(tf, (uint32_t)tf->error);
}

uint64_t syscall_unknown_count(void)
{
	return unknown_calls;
}

/* The slow path's call: the arguments from the complete frame (a tracer may have changed them). */
static long syscall_call(struct trap_frame *tf, uint32_t nr)
{
	if (nr >= NR_SYSCALLS)
		return syscall_unknown(tf, nr);
	return syscall_table[nr](tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9);
}

static int sysret_allowed(const struct trap_frame *tf)
{
	return (tf->rcx == tf->rip) & (tf->r11 == tf->rflags) & (tf->cs == USER_CS) &
	       (tf->ss == USER_DS) & (tf->rip < TASK_SIZE_MAX) &
	       !(tf->rflags & (RFLAGS_TF | RFLAGS_RF));
}

int syscall_exit_slow(struct trap_frame *tf)
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

int syscall_slow_entry(struct trap_frame *tf)
{
	if (current->work & TASK_WORK_SYSCALL_TRACE)
		return syscall_traced(tf);
	/* Linux uses the low 32 bits of RAX as the number. */
	tf->rax = (uint64_t)syscall_call(tf, (uint32_t)tf->error);
	return syscall_exit_slow(tf);
}
