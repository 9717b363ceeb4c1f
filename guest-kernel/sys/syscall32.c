/*
 * The C half of the compat (i386) syscall entries (arch/x86_64/entry/
 * entry_compat.S): the frame is always complete there (the entries save
 * every register, as Linux's do), so there is no fast/slow split as on the
 * 64-bit path (sys/syscall.c): one call, with ptrace's stops around it.
 *
 * The number is the frame's error slot (orig_ax: EAX zero-extended, so -1
 * from a tracer reads 0xffffffff... only after a tracer wrote it), the
 * arguments EBX ECX EDX ESI EDI EBP zero-extended (syscall_table32.c's
 * wrappers sign-extend the `int` ones), the result sign-extended into RAX.
 */
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/sched.h"
#include "sys/errno.h"
#include "sys/syscall32.h"
#include "sys/uaccess.h"
#include "vdso/vdso32.h"

_Static_assert(sizeof(compat_syscall_table[0]) == 8, "compat table of function pointers");

static long compat_call(struct trap_frame *tf, uint32_t nr)
{
	/* Past the table: the 64-bit filler reads the number from the frame and counts it. */
	syscall_fn *fn = nr < NR_COMPAT_SYSCALLS ? compat_syscall_table[nr] : sys_ni_syscall;

	return fn((uint32_t)tf->rbx, (uint32_t)tf->rcx, (uint32_t)tf->rdx, (uint32_t)tf->rsi,
		  (uint32_t)tf->rdi, (uint32_t)tf->rbp);
}

/* Linux's order: RAX reads -ENOSYS during the entry stop; orig_ax -1 skips the call. */
static void compat_syscall(struct trap_frame *tf)
{
	tf->rax = (uint64_t)-ENOSYS;
	if (current->work & TASK_WORK_SYSCALL_TRACE) {
		if (!ptrace_syscall_entry(tf))
			goto out;
		if ((int32_t)tf->error == -1)
			goto out;
	}
	tf->rax = (uint64_t)compat_call(tf, (uint32_t)tf->error);
out:
	if (current->work & (TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP))
		ptrace_syscall_exit(tf);
}

void do_int80_syscall(struct trap_frame *tf)
{
	compat_syscall(tf);
}

/*
 * Linux's do_fast_syscall_32(): the return goes to the vdso32 landing pad
 * (vdso/vdso32.h; without a vdso32, to address VDSO32_LANDING_PAD: a
 * SIGSEGV), the sixth argument is the EBP __kernel_vsyscall pushed at ESP.
 */
int do_fast_syscall_32(struct trap_frame *tf)
{
	struct task *t = current;
	uint64_t pad = t->mm->vdso32_base + VDSO32_LANDING_PAD;
	uint32_t ebp;

	tf->rip = pad;
	tf->rflags |= RFLAGS_IF;
	if (copy_from_user(&ebp, (uint32_t)tf->rsp, sizeof(ebp))) {
		tf->rax = (uint64_t)-EFAULT;
		return 0;
	}
	tf->rbp = ebp;
	compat_syscall(tf);
	if (t->work)
		exit_to_user_work(tf);
	return tf->cs == USER32_CS && tf->ss == USER_DS && tf->rip == pad &&
	       t->mm->vdso32_base && !(tf->rflags & (RFLAGS_TF | RFLAGS_RF));
}
