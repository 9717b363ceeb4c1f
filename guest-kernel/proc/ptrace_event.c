/*
 * ptrace's event stops (ptrace.h): what a tracer asked to see beyond
 * signals and syscalls, as Linux's ptrace(2) describes them.
 *
 *   fork/vfork/clone  with PTRACE_O_TRACEFORK/VFORK/CLONE (or CLONE_PTRACE)
 *                     the child is traced by the same tracer with the same
 *                     options and starts with a SIGSTOP pending (ATTACH or
 *                     TRACEME) or a PTRACE_EVENT_STOP trap (SEIZE); the
 *                     parent stops with PTRACE_EVENT_FORK/VFORK/CLONE, the
 *                     child's pid in GETEVENTMSG, and after a vfork child
 *                     released it, PTRACE_EVENT_VFORK_DONE if asked.
 *   execve            PTRACE_EVENT_EXEC (the former tid in GETEVENTMSG)
 *                     with TRACEEXEC, else a SIGTRAP unless SEIZEd.
 *   exit              PTRACE_EVENT_EXIT with TRACEEXIT, the wait status in
 *                     GETEVENTMSG, before anything is torn down; none when
 *                     killed by SIGKILL.
 *   traps             PTRACE_EVENT_STOP for SEIZEd tracees: the first stop
 *                     of an auto-attached child, PTRACE_INTERRUPT, and
 *                     every SIGCONT (Linux's JOBCTL_TRAP_NOTIFY), with
 *                     SIGTRAP as the signal.
 *   group stop        a stop signal the tracer let through stops the
 *                     tracee for it: PTRACE_EVENT_STOP with that signal
 *                     (SEIZE) or a plain stop with no siginfo (ATTACH:
 *                     GETSIGINFO fails with EINVAL).  PTRACE_LISTEN leaves
 *                     it stopped until SIGCONT (a trap follows) or SIGKILL.
 *
 * A signal the tracer resumes an event stop or a trap with is ignored.
 * Events are stops in the tracee's own kernel code, like the others
 * (ptrace.c's ptrace_stop): in clone and execve, whose frames are complete
 * (ptregs stubs), at the top of task_exit, and on the return to user mode
 * (TASK_WORK_NOTIFY) for traps.
 */
#include "proc/clone_flags.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/ptrace_priv.h"
#include "proc/ptrace_regs.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"

#define TRAP_CODE PTRACE_EVENT_CODE(SIGTRAP, PTRACE_EVENT_STOP)

static bool seized(const struct task *t)
{
	return (t->ptrace_opts & PTRACE_SEIZED) != 0;
}

static void event_stop(int event, uint64_t msg)
{
	current->ptrace_eventmsg = msg;
	ptrace_stop(PTRACE_EVENT_CODE(SIGTRAP, event), 0, false);
}

/* The event a clone reports to the parent's tracer, 0: none (Linux kernel_clone). */
static int clone_event(const struct task *p, uint64_t flags)
{
	int ev = PTRACE_EVENT_FORK;
	uint32_t opt = PTRACE_O_TRACEFORK;

	if (!p->tracer || (flags & CLONE_UNTRACED))
		return 0;
	if (flags & CLONE_VFORK)
		ev = PTRACE_EVENT_VFORK, opt = PTRACE_O_TRACEVFORK;
	else if ((flags & CSIGNAL) != SIGCHLD)
		ev = PTRACE_EVENT_CLONE, opt = PTRACE_O_TRACECLONE;
	return (p->ptrace_opts & opt) ? ev : 0;
}

void ptrace_clone_inherit(struct task *child, const struct task *parent, uint64_t clone_flags)
{
	/* The frame copy loses a TF that PTRACE_SINGLESTEP forced on the parent. */
	if (parent->ptrace_forced_tf)
		task_user_frame(child)->rflags &= ~PTRACE_RFLAGS_TF;
	child->tracer = 0;
	child->ptrace_opts = 0;
	child->ptrace_trap = 0;
	child->ptrace_listening = false;
	child->work &= ~(TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP);
	if (!parent->tracer || (!(clone_flags & CLONE_PTRACE) && !clone_event(parent, clone_flags)))
		return;
	child->tracer = parent->tracer;
	child->ptrace_opts = parent->ptrace_opts;
	if (seized(child)) {
		child->ptrace_trap = TRAP_CODE;
		child->work |= TASK_WORK_NOTIFY;
	} else {
		signal_send(child, SIGSTOP, 0, false);
	}
}

void ptrace_clone_event(const struct task *child, uint64_t clone_flags)
{
	int ev = clone_event(current, clone_flags);

	if (ev)
		event_stop(ev, (uint64_t)child->pid);
}

void ptrace_vfork_done(int child_pid)
{
	struct task *t = current;

	if (t->tracer && (t->ptrace_opts & PTRACE_O_TRACEVFORKDONE))
		event_stop(PTRACE_EVENT_VFORK_DONE, (uint64_t)child_pid);
}

void ptrace_exec(int old_tid)
{
	struct task *t = current;

	if (!t->tracer)
		return;
	if (t->ptrace_opts & PTRACE_O_TRACEEXEC)
		event_stop(PTRACE_EVENT_EXEC, (uint64_t)old_tid);
	else if (!seized(t))
		signal_send(t, SIGTRAP, 0, false);
}

void ptrace_exit_event(int wstatus)
{
	struct task *t = current;

	if (!t->tracer || !(t->ptrace_opts & PTRACE_O_TRACEEXIT) || (wstatus & 0x7f) == SIGKILL ||
	    (t->sig.pending.set & BIT(SIGKILL - 1)))
		return;
	event_stop(PTRACE_EVENT_EXIT, (uint64_t)(uint32_t)wstatus);
}

void ptrace_trap_work(void)
{
	struct task *t = current;
	int code = t->ptrace_trap;

	t->ptrace_trap = 0;
	if (code && t->tracer)
		ptrace_stop(code, 0, false);
}

bool ptrace_group_stop(int sig)
{
	struct task *t = current;

	if (!t->tracer)
		return false;
	if (seized(t))
		ptrace_stop(PTRACE_EVENT_CODE(sig, PTRACE_EVENT_STOP), 0, false);
	else
		ptrace_stop(sig, 0, true);
	/* A trap due since (SIGCONT) comes before any other signal (Linux get_signal). */
	ptrace_trap_work();
	return true;
}

void ptrace_sigcont(struct task *t)
{
	if (!t->tracer || !seized(t))
		return;
	t->ptrace_trap = TRAP_CODE;
	t->work |= TASK_WORK_NOTIFY;
	if (t->ptrace_listening) {
		t->ptrace_listening = false;
		wake_task(t);
	}
}

long ptrace_interrupt(struct task *t)
{
	if (!seized(t))
		return -EIO;
	t->ptrace_trap = TRAP_CODE;
	t->work |= TASK_WORK_NOTIFY;
	if (t->ptrace_listening) {
		t->ptrace_listening = false;
		wake_task(t);
	} else if (t->state == TASK_BLOCKED) {
		/* Out of an interruptible sleep; the call restarts after the trap (Linux). */
		t->work |= TASK_WORK_SIGPENDING;
		wake_signal(t);
	}
	return 0;
}

long ptrace_listen(struct task *t)
{
	if (!seized(t) || (t->ptrace_siginfo.code >> 8) != PTRACE_EVENT_STOP)
		return -EIO;
	if (t->ptrace_trap) {
		/* A trap is due (SIGCONT came): it leaves the stop to take it at once. */
		t->ptrace_resume_sig = 0;
		wake_task(t);
		return 0;
	}
	t->ptrace_listening = true;
	return 0;
}

bool ptrace_zombie_hidden(const struct task *c, const struct task *waiter)
{
	return c->tracer && c->tracer->tgid != waiter->tgid;
}

bool ptrace_zombie_reaped(struct task *c, const struct task *waiter)
{
	if (!c->tracer || !c->parent || c->parent->tgid == waiter->tgid)
		return false;
	c->tracer = 0;
	c->ptrace_opts = 0;
	wake_up(c->parent);
	return true;
}
