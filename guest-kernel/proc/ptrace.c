/*
 * ptrace (ptrace.h): tracing a task, the stops, and the requests a tracer
 * makes of a stopped tracee.
 *
 * A tracee stops only in its own kernel code, on its way back to user
 * mode: at a signal's delivery (the signal helper calls
 * ptrace_signal_stop), at syscall entry and exit (PTRACE_SYSCALL), and at
 * the SIGTRAP of a single step.  Stopping is: state TASK_STOPPED, the stop
 * code for wait, the tracer woken (and sent SIGCHLD), then schedule();
 * the tracer's resume request makes it runnable again with the signal to
 * deliver.  While stopped, its user registers are the trap frame at the
 * top of its kernel stack and its thread state (saved by the switch away),
 * which is what PEEKUSER/POKEUSER/GETREGS/SETREGS read and write.
 *
 * Event stops (fork/clone/exec/exit), PTRACE_EVENT_STOP traps, group stop
 * under ptrace, PTRACE_INTERRUPT and PTRACE_LISTEN are ptrace_event.c's.
 * PTRACE_GET_SYSCALL_INFO reports entry/exit only at syscall stops with
 * TRACESYSGOOD, as Linux (there is no seccomp, so no seccomp op).
 */
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/pgtable.h"
#include "mm/upt.h"
#include "arch/x86_64/fpu.h"
#include "proc/process.h"
#include "proc/ptrace.h"
#include "proc/ptrace_priv.h"
#include "proc/ptrace_regs.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uio.h"

#define PTRACE_TRACEME 0
#define PTRACE_PEEKTEXT 1
#define PTRACE_PEEKDATA 2
#define PTRACE_PEEKUSR 3
#define PTRACE_POKETEXT 4
#define PTRACE_POKEDATA 5
#define PTRACE_POKEUSR 6
#define PTRACE_CONT 7
#define PTRACE_KILL 8
#define PTRACE_SINGLESTEP 9
#define PTRACE_GETREGS 12
#define PTRACE_SETREGS 13
#define PTRACE_GETFPREGS 14
#define PTRACE_SETFPREGS 15
#define PTRACE_ATTACH 16
#define PTRACE_DETACH 17
#define PTRACE_SYSCALL 24
#define PTRACE_SETOPTIONS 0x4200
#define PTRACE_GETEVENTMSG 0x4201
#define PTRACE_GETSIGINFO 0x4202
#define PTRACE_SETSIGINFO 0x4203
#define PTRACE_GETREGSET 0x4204
#define PTRACE_SETREGSET 0x4205
#define PTRACE_SEIZE 0x4206
#define PTRACE_INTERRUPT 0x4207
#define PTRACE_LISTEN 0x4208
#define PTRACE_GET_SYSCALL_INFO 0x420e

#define AUDIT_ARCH_X86_64 0xc000003eu
#define AUDIT_ARCH_I386 0x40000003u /* a compat syscall (TF_VECTOR_SYSCALL32) */

#define NT_PRSTATUS 1
#define NT_PRFPREG 2

#define FXSAVE_BYTES 512

/* ---- stops (the tracee's side) ---- */

int ptrace_stop(int code, const struct ksiginfo *info, bool no_siginfo)
{
	struct task *t = current, *tracer = t->tracer;
	struct ksiginfo chld = {.signo = SIGCHLD, .code = CLD_TRAPPED, .pid = t->pid};

	t->ptrace_stop_sig = code;
	t->ptrace_stop_reported = false;
	t->ptrace_resume_sig = 0;
	if (info)
		t->ptrace_siginfo = *info;
	else if (no_siginfo)
		t->ptrace_siginfo = (struct ksiginfo){0};
	else
		t->ptrace_siginfo = (struct ksiginfo){.signo = code & 0x7f, .code = code};
	t->state = TASK_STOPPED;
	chld.status = code & 0x7f;
	signal_send(tracer, SIGCHLD, &chld, true);
	wake_up(tracer->group_leader);
	for (;;) {
		schedule();
		/* PTRACE_LISTEN keeps it stopped: only SIGCONT, SIGKILL, a detach or a resume end it. */
		if (!t->tracer || !t->ptrace_listening || (t->sig.pending.set & BIT(SIGKILL - 1)))
			break;
		t->state = TASK_STOPPED;
	}
	t->ptrace_listening = false;
	t->ptrace_syscall_op = PTRACE_SYSCALL_INFO_NONE;
	/*
	 * A signal sent during the stop found no taker (wants_signal: stopped)
	 * and left TASK_WORK_SIGPENDING alone: without this, a stop reached
	 * outside signal_deliver()'s loop (a PTRACE_INTERRUPT trap, a syscall
	 * stop) returns to user mode with it pending and undelivered, and every
	 * interruptible sleep after it ends at once (Linux: ptrace_stop's
	 * recalc_sigpending_tsk).
	 */
	signal_recalc(t);
	return t->tracer ? t->ptrace_resume_sig : 0;
}

int ptrace_signal_stop(int sig, struct ksiginfo *info, struct trap_frame *tf)
{
	struct task *t = current;
	int r;

	(void)tf;
	if (!t->tracer || sig == SIGKILL)
		return sig;
	r = ptrace_stop(sig, info, false);
	/* What the tracer left in the siginfo (PTRACE_SETSIGINFO) is what is delivered. */
	if (info && t->tracer)
		*info = t->ptrace_siginfo;
	if (r && info && info->signo != r) {
		/* The tracer chose another signal: it comes from the tracer (Linux: SI_USER). */
		*info = (struct ksiginfo){.signo = r, .code = SI_USER, .pid = t->tracer->tgid};
	}
	if (r && (t->sig.blocked & BIT(r - 1))) {
		signal_send(t, r, info, false);
		return 0;
	}
	return r;
}

/* A syscall stop: SIGTRAP, |0x80 with TRACESYSGOOD (GET_SYSCALL_INFO names it only then). */
static int syscall_stop(struct task *t, int op)
{
	bool good = (t->ptrace_opts & PTRACE_O_TRACESYSGOOD) != 0;

	t->ptrace_eventmsg = (uint64_t)op;
	t->ptrace_syscall_op = good ? (uint8_t)op : PTRACE_SYSCALL_INFO_NONE;
	return ptrace_stop(SIGTRAP | (good ? 0x80 : 0), 0, false);
}

/* A stop's resume signal that is not 0 is delivered next (Linux: send_sig after a syscall stop). */
static void resume_signal(int sig)
{
	if (sig > 0 && sig <= NSIG)
		signal_send(current, sig, 0, false);
}

bool ptrace_syscall_entry(struct trap_frame *tf)
{
	(void)tf;
	if (!current->tracer)
		return true;
	resume_signal(syscall_stop(current, PTRACE_SYSCALL_INFO_ENTRY));
	return current->state == TASK_RUNNABLE;
}

void ptrace_syscall_exit(struct trap_frame *tf)
{
	struct task *t = current;

	if (!t->tracer)
		return;
	if (t->work & TASK_WORK_SINGLESTEP) {
		/* Stepping over SYSCALL: the step is reported here, after it (Linux). */
		signal_force(tf, SIGTRAP, TRAP_BRKPT, 0);
		return;
	}
	if (t->work & TASK_WORK_SYSCALL_TRACE)
		resume_signal(syscall_stop(t, PTRACE_SYSCALL_INFO_EXIT));
}

/* ---- life cycle ---- */

static void detach(struct task *t)
{
	struct trap_frame *tf = task_user_frame(t);

	if (t->ptrace_forced_tf)
		tf->rflags &= ~PTRACE_RFLAGS_TF;
	t->ptrace_forced_tf = false;
	t->tracer = 0;
	t->ptrace_opts = 0;
	t->ptrace_trap = 0;
	t->ptrace_listening = false;
	t->work &= ~(TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP);
	if (t->state == TASK_STOPPED)
		wake_task(t);
	/* A zombie the tracer never reaped is its parent's again. */
	if (t->state == TASK_ZOMBIE && t->parent)
		wake_up(t->parent);
}

void ptrace_task_exit(struct task *t)
{
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		struct task *c = &task_table[i];

		if (c->tracer != t || c->state == TASK_UNUSED)
			continue;
		if (c->ptrace_opts & PTRACE_O_EXITKILL)
			signal_send(c, SIGKILL, 0, false);
		detach(c);
	}
	if (t->tracer)
		wake_up(t->tracer->group_leader);
}

/* ---- the tracer's requests ---- */

/* The tracee of a request other than TRACEME/ATTACH: traced by current and stopped. */
static struct task *tracee_stopped(int pid, long *err)
{
	struct task *t = task_find(pid);

	*err = -ESRCH;
	if (!t || t->tracer != current || t->state != TASK_STOPPED || t->ptrace_listening)
		return 0;
	return t;
}

static long resume(struct task *t, uint64_t req, uint64_t data)
{
	struct trap_frame *tf = task_user_frame(t);

	if (data > NSIG)
		return -EIO;
	t->work &= ~(TASK_WORK_SYSCALL_TRACE | TASK_WORK_SINGLESTEP);
	if (req == PTRACE_SYSCALL)
		t->work |= TASK_WORK_SYSCALL_TRACE;
	if (req == PTRACE_SINGLESTEP) {
		t->work |= TASK_WORK_SINGLESTEP;
		if (!(tf->rflags & PTRACE_RFLAGS_TF)) {
			tf->rflags |= PTRACE_RFLAGS_TF;
			t->ptrace_forced_tf = true;
		}
	} else if (t->ptrace_forced_tf) {
		tf->rflags &= ~PTRACE_RFLAGS_TF;
		t->ptrace_forced_tf = false;
	}
	/* The frame may have changed: the syscall return must check it in full. */
	t->work |= TASK_WORK_FRAME;
	t->ptrace_listening = false;
	t->ptrace_resume_sig = (int)data;
	wake_task(t);
	return 0;
}

/* The tracee's word at addr, through its page tables and the direct map. */
static uint64_t *tracee_word(struct task *t, uint64_t addr, bool write)
{
	uint64_t *pte;

	if ((addr & 7) || addr >= PTRACE_TASK_SIZE_MAX || !t->mm)
		return 0;
	pte = upt_pte(t->mm, addr, false);
	if (!pte || !(*pte & PTE_P) || (write && (*pte & PTE_SW_NOFREE)))
		return 0;
	return (uint64_t *)((uint8_t *)phys_to_virt(*pte & PTE_ADDR_MASK) + (addr & (PAGE_SIZE - 1)));
}

static long peek_user(struct task *t, uint64_t off, uint64_t data)
{
	uint64_t v = 0;

	if ((off & 7) || off >= USER_SIZE)
		return -EIO;
	if (off < USER_REGS_SIZE)
		v = ptrace_getreg(task_user_frame(t), &t->arch, (unsigned)(off / 8),
				  t->ptrace_forced_tf);
	else if (off >= USER_DEBUGREG_OFFSET) /* u_debugreg (hw_breakpoint.c); the rest reads 0 */
		v = hwbp_get(t, (unsigned)((off - USER_DEBUGREG_OFFSET) / 8));
	return copy_to_user(data, &v, sizeof(v));
}

static long poke_user(struct task *t, uint64_t off, uint64_t data)
{
	if ((off & 7) || off >= USER_SIZE)
		return -EIO;
	if (off < USER_REGS_SIZE) {
		t->work |= TASK_WORK_FRAME;
		return ptrace_putreg(task_user_frame(t), &t->arch, (unsigned)(off / 8), data,
				     &t->ptrace_forced_tf);
	}
	/* u_debugreg: DR0-DR7 (hw_breakpoint.c, Linux's checks); nothing else of struct user. */
	return off >= USER_DEBUGREG_OFFSET
		       ? hwbp_set(t, (unsigned)((off - USER_DEBUGREG_OFFSET) / 8), data)
		       : -EIO;
}

static long get_regs(struct task *t, uint64_t udst, uint64_t len)
{
	uint64_t regs[UREG_COUNT];
	unsigned i;

	for (i = 0; i < UREG_COUNT; i++)
		regs[i] = ptrace_getreg(task_user_frame(t), &t->arch, i, t->ptrace_forced_tf);
	return copy_to_user(udst, regs, len < sizeof(regs) ? len : sizeof(regs));
}

static long set_regs(struct task *t, uint64_t usrc, uint64_t len)
{
	uint64_t regs[UREG_COUNT];
	struct trap_frame copy = *task_user_frame(t);
	struct thread_arch arch = t->arch;
	bool forced = t->ptrace_forced_tf;
	unsigned i;

	if (len > sizeof(regs))
		len = sizeof(regs);
	for (i = 0; i < UREG_COUNT; i++)
		regs[i] = ptrace_getreg(&copy, &arch, i, forced);
	if (copy_from_user(regs, usrc, len))
		return -EFAULT;
	/* All or nothing: one bad value leaves the tracee as it was. */
	for (i = 0; i < UREG_COUNT; i++)
		if (ptrace_putreg(&copy, &arch, i, regs[i], &forced))
			return -EIO;
	*task_user_frame(t) = copy;
	t->arch = arch;
	t->ptrace_forced_tf = forced;
	t->work |= TASK_WORK_FRAME;
	return 0;
}

static long fpregs(struct task *t, uint64_t ubuf, uint64_t len, bool set)
{
	if (len > FXSAVE_BYTES)
		len = FXSAVE_BYTES;
	if (!set)
		return copy_to_user(ubuf, t->arch.fpu, len);
	{
		uint8_t fx[FXSAVE_BYTES];

		memcpy(fx, t->arch.fpu, sizeof(fx));
		if (copy_from_user(fx, ubuf, len))
			return -EFAULT;
		/* MXCSR outside the CPU's mask: EINVAL; x87/SSE marked in use for XRSTOR. */
		return fpu_set_fxsave(t->arch.fpu, fx) ? -EINVAL : 0;
	}
}

static long regset(struct task *t, uint64_t type, uint64_t uiov, bool set)
{
	struct iovec_user iov;
	long err;
	uint64_t size = type == NT_PRSTATUS ? USER_REGS_SIZE : FXSAVE_BYTES;

	if (type != NT_PRSTATUS && type != NT_PRFPREG)
		return -EINVAL;
	if (copy_from_user(&iov, uiov, sizeof(iov)))
		return -EFAULT;
	if (iov.len > size)
		iov.len = size;
	if (type == NT_PRSTATUS)
		err = set ? set_regs(t, iov.base, iov.len) : get_regs(t, iov.base, iov.len);
	else
		err = fpregs(t, iov.base, iov.len, set);
	if (!err && !set)
		err = copy_to_user(uiov + 8, &iov.len, sizeof(iov.len));
	return err;
}

static long attach(int pid, bool seize, uint64_t addr, uint64_t opts)
{
	struct task *t = task_find(pid);

	/* SEIZE's addr must be 0 and its options known: EIO, not SETOPTIONS' EINVAL (Linux). */
	if (seize && (addr || (opts & ~(uint64_t)PTRACE_O_MASK)))
		return -EIO;
	if (!t)
		return -ESRCH;
	if (t->tracer || task_same_group(t, current) || !cred_may_ptrace(current, t))
		return -EPERM;
	t->tracer = current;
	t->ptrace_opts = (uint32_t)opts | (seize ? PTRACE_SEIZED : 0);
	if (!seize)
		signal_send(t, SIGSTOP, 0, false);
	if (t->state == TASK_STOPPED) {
		/*
		 * Group-stopped: it leaves that stop to stop again for its tracer,
		 * a PTRACE_EVENT_STOP trap when SEIZEd, the SIGSTOP's delivery stop
		 * otherwise (Linux JOBCTL_TRAP_STOP); wait has nothing until then.
		 */
		t->ptrace_stop_reported = true;
		if (seize) {
			t->ptrace_trap = PTRACE_EVENT_CODE(SIGSTOP, PTRACE_EVENT_STOP);
			t->work |= TASK_WORK_NOTIFY;
		}
		wake_task(t);
	}
	return 0;
}

/* struct ptrace_syscall_info (linux/ptrace.h), 88 bytes. */
struct syscall_info {
	uint8_t op, pad[3];
	uint32_t arch;
	uint64_t instruction_pointer, stack_pointer;
	union {
		struct {
			uint64_t nr, args[6];
		} entry;
		struct {
			int64_t rval;
			uint8_t is_error;
		} exit;
	};
};

/* PTRACE_GET_SYSCALL_INFO: returns the size of the op's data, copies at most len bytes. */
static long get_syscall_info(struct task *t, uint64_t len, uint64_t udst)
{
	const struct trap_frame *tf = task_user_frame(t);
	bool compat = tf->vector == TF_VECTOR_SYSCALL32;
	struct syscall_info si = {.op = t->ptrace_syscall_op,
				  .arch = compat ? AUDIT_ARCH_I386 : AUDIT_ARCH_X86_64,
				  .instruction_pointer = tf->rip, .stack_pointer = tf->rsp};
	uint64_t size = offsetof(struct syscall_info, entry);

	if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
		uint64_t a[6] = {tf->rdi, tf->rsi, tf->rdx, tf->r10, tf->r8, tf->r9};
		uint64_t a32[6] = {(uint32_t)tf->rbx, (uint32_t)tf->rcx, (uint32_t)tf->rdx,
				   (uint32_t)tf->rsi, (uint32_t)tf->rdi, (uint32_t)tf->rbp};

		if (compat) /* the i386 argument registers */
			memcpy(a, a32, sizeof(a));
		si.entry.nr = tf->error; /* orig_rax */
		memcpy(si.entry.args, a, sizeof(a));
		size = offsetof(struct syscall_info, entry.args) + sizeof(a);
	} else if (si.op == PTRACE_SYSCALL_INFO_EXIT) {
		si.exit.rval = (int64_t)tf->rax;
		si.exit.is_error = tf->rax >= (uint64_t)-4095; /* IS_ERR_VALUE */
		size = offsetof(struct syscall_info, exit.is_error) + 1;
	}
	if (copy_to_user(udst, &si, len < size ? len : size))
		return -EFAULT;
	return (long)size;
}

/* siginfo_t as Linux lays it out for ptrace: signo, errno, code, then pid/uid or addr. */
static long get_siginfo(const struct task *t, uint64_t udst)
{
	const struct ksiginfo *k = &t->ptrace_siginfo;
	int32_t si[32] = {k->signo, k->errno_, k->code, 0, k->pid, k->uid, k->status};

	if (!k->signo)
		return -EINVAL; /* a group stop of an ATTACHed tracee has no siginfo (Linux) */
	if (k->addr)
		memcpy(&si[4], &k->addr, sizeof(k->addr));
	return copy_to_user(udst, si, sizeof(si));
}

static long set_siginfo(struct task *t, uint64_t usrc)
{
	int32_t si[32];
	struct ksiginfo *k = &t->ptrace_siginfo;

	if (!k->signo)
		return -EINVAL;
	if (copy_from_user(si, usrc, sizeof(si)))
		return -EFAULT;
	*k = (struct ksiginfo){.signo = si[0], .errno_ = si[1], .code = si[2], .pid = si[4],
			       .uid = si[5], .status = si[6]};
	memcpy(&k->addr, &si[4], sizeof(k->addr));
	return 0;
}

/* ptrace(request, pid, addr, data) */
SYSCALL_DEFINE4(ptrace, uint64_t, request, int, pid, uint64_t, addr, uint64_t, data)
{
	struct task *t;
	long err;
	uint64_t *w;

	switch (request) {
	case PTRACE_TRACEME:
		if (current->tracer || !current->group_leader->parent)
			return -EPERM;
		current->tracer = current->group_leader->parent;
		return 0;
	case PTRACE_ATTACH:
	case PTRACE_SEIZE:
		return attach(pid, request == PTRACE_SEIZE, addr, request == PTRACE_SEIZE ? data : 0);
	case PTRACE_KILL:
		t = task_find(pid);
		if (!t || t->tracer != current)
			return -ESRCH;
		signal_send(t, SIGKILL, 0, false);
		wake_task(t);
		return 0;
	case PTRACE_INTERRUPT:
		t = task_find(pid);
		if (!t || t->tracer != current)
			return -ESRCH;
		return ptrace_interrupt(t);
	}
	t = tracee_stopped(pid, &err);
	if (!t)
		return err;
	switch (request) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
		w = tracee_word(t, addr, false);
		return w ? copy_to_user(data, w, sizeof(*w)) : -EIO;
	case PTRACE_POKETEXT:
	case PTRACE_POKEDATA:
		w = tracee_word(t, addr, true);
		if (!w)
			return -EIO;
		*w = data;
		return 0;
	case PTRACE_PEEKUSR:
		return peek_user(t, addr, data);
	case PTRACE_POKEUSR:
		return poke_user(t, addr, data);
	case PTRACE_GETREGS:
		return get_regs(t, data, USER_REGS_SIZE);
	case PTRACE_SETREGS:
		return set_regs(t, data, USER_REGS_SIZE);
	case PTRACE_GETFPREGS:
		return fpregs(t, data, FXSAVE_BYTES, false);
	case PTRACE_SETFPREGS:
		return fpregs(t, data, FXSAVE_BYTES, true);
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		return regset(t, addr, data, request == PTRACE_SETREGSET);
	case PTRACE_GETSIGINFO:
		return get_siginfo(t, data);
	case PTRACE_SETSIGINFO:
		return set_siginfo(t, data);
	case PTRACE_GET_SYSCALL_INFO:
		return get_syscall_info(t, addr, data);
	case PTRACE_SETOPTIONS:
		if (data & ~(uint64_t)PTRACE_O_MASK)
			return -EINVAL;
		t->ptrace_opts = (uint32_t)data | (t->ptrace_opts & PTRACE_SEIZED);
		return 0;
	case PTRACE_GETEVENTMSG:
		return copy_to_user(data, &t->ptrace_eventmsg, sizeof(t->ptrace_eventmsg));
	case PTRACE_LISTEN:
		return ptrace_listen(t);
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
		return resume(t, request, data);
	case PTRACE_DETACH:
		if (data > NSIG)
			return -EIO;
		t->ptrace_resume_sig = (int)data;
		detach(t);
		return 0;
	default:
		return -EIO;
	}
}
