/*
 * fork, vfork and clone (Linux x86-64 argument order: flags, stack,
 * parent_tid, child_tid, tls).  The child starts as a copy of the caller's
 * user frame with RAX = 0 (and the new stack and TLS when given) and
 * returns to user mode through IRET (switch.S ret_from_fork).  What it
 * shares with the caller is what the flags say: the address space
 * (CLONE_VM), the file table (CLONE_FILES), the signal actions
 * (CLONE_SIGHAND), the thread group (CLONE_THREAD).  From the i386 ABI
 * (c32_clone: flags, stack, parent_tid, tls, child_tid) CLONE_SETTLS's tls
 * is a struct user_desc for a GDT TLS entry (arch/x86_64/tls.c), as on Linux.
 */
#include "arch/x86_64/tls.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/kmalloc.h"
#include "proc/jobctl.h"
#include "proc/clone_flags.h"
#include "proc/process.h"
#include "proc/rlimit.h"
#include "proc/ptrace.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/task_alloc.h"
#include "proc/timer.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"

/* Flags this kernel implements (the namespace ones are refused: EINVAL). */
#define CLONE_SUPPORTED                                                                   \
	(CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_PTRACE |      \
	 CLONE_VFORK | CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |         \
	 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_UNTRACED |     \
	 CLONE_CHILD_SETTID | CLONE_IO)

/* Linux's consistency rules (copy_process). */
static int clone_flags_check(uint64_t flags)
{
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	return 0;
}

static struct files *files_copy(const struct files *src)
{
	struct files *f = files_alloc();
	unsigned fd;

	if (!f)
		return 0;
	f->t = src->t;
	for (fd = 0; fd < FD_MAX; fd++)
		if (f->t.fd[fd])
			f->t.fd[fd]->refs++;
	return f;
}

static uint64_t user_tasks(uint32_t uid)
{
	unsigned i, n = 0;

	for (i = 0; i < task_slots; i++)
		n += task_table[i].state != TASK_UNUSED && task_table[i].state != TASK_DEAD &&
		     task_table[i].cred.uid == uid;
	return n;
}

static long clone_fail(struct task *c, long err)
{
	if (c->mm)
		mm_put(c->mm);
	if (c->files && !--c->files->refs) {
		fd_close_all(&c->files->t);
		files_free(c->files);
	}
	if (c->sighand)
		signal_task_release(c);
	task_free(c);
	return err;
}

static long do_clone(uint64_t flags, uint64_t newsp, uint64_t parent_tid, uint64_t child_tid,
		     uint64_t tls)
{
	struct task *p = current, *c;
	int pid;
	struct trap_frame *tf;
	int err = clone_flags_check(flags);
	/* From the i386 ABI (Linux's in_ia32_syscall) tls is a struct user_desc pointer. */
	bool ia32 = task_user_frame(p)->vector == TF_VECTOR_SYSCALL32;

	if (err)
		return err;
	if ((flags & CLONE_SETTLS) && !ia32 && tls >= TASK_SIZE_MAX)
		return -EPERM;
	/* RLIMIT_NPROC: tasks of the caller's real user, root's excepted (Linux copy_process). */
	if (p->cred.uid && !cred_capable(p) && user_tasks(p->cred.uid) >= rlimit_cur(p, RLIMIT_NPROC))
		return -EAGAIN;
	c = task_alloc();
	if (!c)
		return -EAGAIN;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	memcpy(c->exe_path, p->exe_path, sizeof(c->exe_path));
	c->cwd = p->cwd;
	c->umask = p->umask;
	c->undumpable = p->undumpable;
	c->no_new_privs = p->no_new_privs;
	c->cred = p->cred;
	jobctl_fork(c, p);
	rlimit_fork(c, p);
	if (flags & CLONE_THREAD) {
		c->tgid = p->tgid;
		c->group_leader = p->group_leader;
		c->parent = p->group_leader->parent;
		c->exit_signal = 0;
	} else {
		c->tgid = c->pid;
		c->group_leader = c;
		c->parent = (flags & CLONE_PARENT) ? p->group_leader->parent : p->group_leader;
		c->exit_signal = (int)(flags & CSIGNAL);
	}
	if (flags & CLONE_VM) {
		mm_get(p->mm);
		c->mm = p->mm;
	} else if (!(c->mm = mm_dup(p->mm))) {
		return clone_fail(c, -ENOMEM);
	}
	if (flags & CLONE_FILES) {
		p->files->refs++;
		c->files = p->files;
	} else if (!(c->files = files_copy(p->files))) {
		return clone_fail(c, -ENOMEM);
	}
	if (signal_task_init(c, p, flags) || arch_task_init(c, p))
		return clone_fail(c, -ENOMEM);
	if ((flags & CLONE_SETTLS) && ia32 && (err = (int)tls_set_clone(c, tls)))
		return clone_fail(c, err);
	if ((flags & CLONE_SETTLS) && !ia32) {
		c->arch.fsbase = tls;
		c->arch.fsindex = 0; /* the base is the TLS, not a selector's (Linux) */
	}
	tf = task_user_frame(c);
	*tf = *task_user_frame(p);
	tf->rax = 0;
	if (newsp)
		tf->rsp = newsp;
	c->user_regs = tf;
	if (flags & CLONE_CHILD_SETTID)
		c->set_child_tid = child_tid;
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = child_tid;
	if (flags & CLONE_PARENT_SETTID) {
		uint32_t tid = (uint32_t)c->pid;

		if (copy_to_user(parent_tid, &tid, sizeof(tid)))
			return clone_fail(c, -EFAULT);
	}
	ptrace_clone_inherit(c, p, flags);
	task_stack_init_fork(c);
	pid = c->pid;
	c->state = TASK_RUNNABLE;
	timer_kick();
	if (flags & CLONE_VFORK)
		c->vfork_parent = p;
	ptrace_clone_event(c, flags);
	if (flags & CLONE_VFORK) {
		while (c->vfork_parent == p)
			sched_block(c, 0, false);
		ptrace_vfork_done(pid);
	}
	return pid;
}

SYSCALL_DEFINE5(clone, uint64_t, flags, uint64_t, newsp, uint64_t, parent_tidptr, uint64_t,
		child_tidptr, uint64_t, tls)
{
	return do_clone(flags, newsp, parent_tidptr, child_tidptr, tls);
}

/* i386 clone(flags, newsp, parent_tid, tls, child_tid): tls before child_tid (CLONE_BACKWARDS). */
COMPAT_SYSCALL_DEFINE5(clone, uint64_t, flags, uint64_t, newsp, uint64_t, parent_tidptr, uint64_t,
		tls, uint64_t, child_tidptr)
{
	return do_clone(flags, newsp, parent_tidptr, child_tidptr, tls);
}

SYSCALL_DEFINE0(fork)
{
	return do_clone(SIGCHLD, 0, 0, 0, 0);
}

SYSCALL_DEFINE0(vfork)
{
	return do_clone(CLONE_VFORK | CLONE_VM | SIGCHLD, 0, 0, 0, 0);
}
