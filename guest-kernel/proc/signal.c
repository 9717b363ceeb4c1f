/*
 * Signals (signal.h), as Linux's kernel/signal.c and arch/x86/kernel/
 * signal*.c have them, for tasks on one CPU with a non-preemptible kernel
 * (so no locks: nothing runs between two statements here but an
 * interrupt handler, which never touches signal state).
 *
 * Sending puts the signal in a pending set (the thread's, or the process's
 * in sighand.shared) with its siginfo, picks a thread that does not block
 * it, sets TASK_WORK_SIGPENDING there and wakes it if it sleeps
 * interruptibly.  The return to user mode (exit_to_user_work) then calls
 * signal_deliver(), which takes one signal at a time (the thread's first,
 * synchronous ones first), lets a tracer see it, and either ignores it,
 * takes the default action or builds an rt_sigframe and points the frame
 * at the handler.  Further pending signals nest their frames on the next
 * turn of the loop, as on Linux.
 *
 * A stop signal with the default action stops the whole process and
 * SIGCONT continues it (group stop: proc/jobctl.c); a traced task does not
 * group-stop, its tracer sees the signal instead.
 *
 * Real-time signals queue up to RLIMIT_SIGPENDING per user and
 * SIGQUEUE_EXTRA instances beyond the first per set; past either, sigqueue
 * and tgkill get EAGAIN (queue_refused).
 *
 * Limits: no core dumps (the wait status still says "core" for the core
 * signals, as with an unlimited RLIMIT_CORE).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/x86.h"
#include "entrylab/syscall_nr.h"
#include "entrylab/syscall_nr32.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "mm/frame.h"
#include "mm/layout.h"
#include "proc/clone_flags.h"
#include "proc/jobctl.h"
#include "proc/process.h"
#include "proc/rlimit.h"
#include "proc/ptrace.h"
#include "proc/sched.h"
#include "proc/sigframe.h"
#include "proc/signal.h"
#include "proc/signal32.h"
#include "proc/signal_frame32.h"
#include "sys/errno.h"
#include "sys/uaccess.h"
#include "sys/uaccess_range.h"

/* Faults: dequeued before anything else (Linux SYNCHRONOUS_MASK). */
#define SIG_SYNCHRONOUS (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
			 SIGBIT(SIGFPE) | SIGBIT(SIGSYS))
/* Default actions other than "terminate". */
#define SIG_DEFAULT_IGNORE (SIGBIT(SIGCHLD) | SIGBIT(SIGURG) | SIGBIT(SIGWINCH) | SIGBIT(SIGCONT))
#define SIG_DEFAULT_STOP (SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU))
#define SIG_DEFAULT_CORE (SIGBIT(SIGQUIT) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | SIGBIT(SIGABRT) | \
			  SIGBIT(SIGBUS) | SIGBIT(SIGFPE) | SIGBIT(SIGSEGV) | SIGBIT(SIGXCPU) | \
			  SIGBIT(SIGXFSZ) | SIGBIT(SIGSYS))
#define WCOREFLAG 0x80

#define SIGHAND_ORDER 1 /* struct sighand is larger than a page */
_Static_assert(sizeof(struct sighand) <= (4096u << SIGHAND_ORDER), "struct sighand fits");
_Static_assert(NSIG == SIG_NSIG, "NSIG");

/* sigframe.c's view of a trap frame is the trap frame, field for field. */
#define REGS_CHECK(f)                                                                       \
	_Static_assert(offsetof(struct sigframe_regs, f) == offsetof(struct trap_frame, f), \
		       "sigframe_regs." #f)
REGS_CHECK(r15);
REGS_CHECK(r11);
REGS_CHECK(r8);
REGS_CHECK(rax);
REGS_CHECK(rdi);
REGS_CHECK(vector);
REGS_CHECK(error);
REGS_CHECK(rip);
REGS_CHECK(cs);
REGS_CHECK(rflags);
REGS_CHECK(rsp);
REGS_CHECK(ss);
#undef REGS_CHECK
_Static_assert(sizeof(struct sigframe_regs) == sizeof(struct trap_frame), "sigframe_regs size");
_Static_assert(SIGFRAME_USER_CS == USER_CS && SIGFRAME_USER_DS == USER_DS, "flat selectors");

static void regs_get(struct sigframe_regs *r, const struct trap_frame *tf)
{
	memcpy(r, tf, sizeof(*r));
}

static void regs_put(struct trap_frame *tf, const struct sigframe_regs *r)
{
	memcpy(tf, r, sizeof(*tf));
}

/* --- tasks and sets --- */

static bool task_alive(const struct task *t)
{
	return t->state != TASK_UNUSED && t->state != TASK_ZOMBIE && t->state != TASK_DEAD &&
	       t->sighand;
}

/* The next live thread of g's group after prev (NULL: the first); NULL at the end. */
static struct task *group_next(const struct task *g, struct task *prev)
{
	struct task *t = prev ? prev + 1 : task_table;

	for (; t < task_table + task_slots; t++)
		if (t->tgid == g->tgid && task_alive(t))
			return t;
	return 0;
}

static uint64_t pending_of(const struct task *t)
{
	return t->sig.pending.set | t->sighand->shared.set;
}

bool signal_pending(const struct task *t)
{
	/* blocked never holds SIGKILL: a pending kill always counts; so does a group stop. */
	return t->sighand && ((pending_of(t) & ~t->sig.blocked) || t->job.stop_pending);
}

/* TASK_WORK_SIGPENDING says whether anything is deliverable (Linux recalc_sigpending). */
static void recalc(struct task *t)
{
	if (signal_pending(t))
		t->work |= TASK_WORK_SIGPENDING;
	else
		t->work &= ~TASK_WORK_SIGPENDING;
}

void signal_recalc(struct task *t)
{
	recalc(t);
}

static void signal_wake_up(struct task *t, bool fatal)
{
	t->work |= TASK_WORK_SIGPENDING;
	if (fatal)
		wake_task(t);
	else
		wake_signal(t);
}

/* Linux's wants_signal: a thread that can take sig now. */
static bool wants_signal(int sig, const struct task *t)
{
	if (!task_alive(t) || (t->sig.blocked & SIGBIT(sig)) || t->group_exiting)
		return false;
	if (sig == SIGKILL)
		return true;
	return t->state != TASK_STOPPED;
}

/* Process-directed signals that t no longer takes: another thread that can is woken. */
static void retarget_shared(struct task *t, uint64_t refused)
{
	uint64_t m = t->sighand->shared.set & refused;

	while (m) {
		int sig = __builtin_ctzll(m) + 1;
		struct task *o = 0;

		m &= m - 1;
		while ((o = group_next(t, o)))
			if (o != t && wants_signal(sig, o)) {
				signal_wake_up(o, false);
				break;
			}
	}
}

void signal_set_blocked(struct task *t, uint64_t mask)
{
	uint64_t newly = mask & ~t->sig.blocked & ~SIG_KERNEL_ONLY;

	t->sig.blocked = mask & ~SIG_KERNEL_ONLY;
	if (newly)
		retarget_shared(t, newly);
	recalc(t);
}

/* --- sending --- */

static bool handler_ignores(const struct k_sigaction *ka, int sig)
{
	return ka->handler == SIG_IGN || (ka->handler == SIG_DFL && (SIG_DEFAULT_IGNORE & SIGBIT(sig)));
}

/* Discarded at once (Linux sig_ignored): not blocked, not traced, and ignored by its action. */
static bool sig_ignored(const struct task *t, int sig)
{
	if (t->sig.blocked & SIGBIT(sig))
		return false; /* the action may change before it is unblocked */
	if (t->tracer && sig != SIGKILL)
		return false; /* the tracer sees every signal */
	return handler_ignores(&t->sighand->action[sig - 1], sig);
}

/* The next queued instance of sig becomes the pending one: true if there was one. */
static bool queue_next(struct sigpending_set *s, int sig)
{
	unsigned i;

	for (i = 0; i < s->nq; i++)
		if (s->q[i].signo == sig) {
			s->info[sig - 1] = s->q[i];
			memmove(&s->q[i], &s->q[i + 1], (s->nq - i - 1) * sizeof(s->q[0]));
			s->nq--;
			return true;
		}
	return false;
}

/* Drops the queued instances of the signals in mask. */
static void queue_drop(struct sigpending_set *s, uint64_t mask)
{
	unsigned i, n = 0;

	for (i = 0; i < s->nq; i++)
		if (!(mask & SIGBIT(s->q[i].signo)))
			s->q[n++] = s->q[i];
	s->nq = n;
}

/* Drops the signals in mask from every pending set of t's process. */
static void flush_pending(struct task *t, uint64_t mask)
{
	struct task *o = 0;

	t->sighand->shared.set &= ~mask;
	queue_drop(&t->sighand->shared, mask);
	while ((o = group_next(t, o))) {
		o->sig.pending.set &= ~mask;
		queue_drop(&o->sig.pending, mask);
	}
}

/* A stop signal cancels a pending SIGCONT and the other way round (Linux prepare_signal). */
static void prepare_signal(struct task *t, int sig)
{
	if (SIG_DEFAULT_STOP & SIGBIT(sig))
		flush_pending(t, SIGBIT(SIGCONT));
	else if (sig == SIGCONT) {
		flush_pending(t, SIG_DEFAULT_STOP);
		jobctl_continue(t);
	}
}

/* A thread to take it, woken; SIGKILL reaches every thread of the process at once. */
static void complete_signal(struct task *t, int sig, bool group)
{
	struct task *target = 0, *o = 0;

	if (sig == SIGKILL) {
		while ((o = group_next(t, o))) {
			o->sig.pending.set |= SIGBIT(SIGKILL);
			o->sig.pending.info[SIGKILL - 1] = (group ? t->sighand->shared
							  : t->sig.pending).info[SIGKILL - 1];
			signal_wake_up(o, true);
		}
		return;
	}
	if (wants_signal(sig, t))
		target = t;
	else if (group)
		while ((o = group_next(t, o)) && !target)
			if (wants_signal(sig, o))
				target = o;
	/* Nobody can take it now: it waits, pending, until a thread unblocks it. */
	if (target)
		signal_wake_up(target, false);
}

/* Bits set in m (no POPCNT assumed: the kernel is built for baseline x86-64). */
static uint64_t bits(uint64_t m)
{
	uint64_t n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Signals pending for t's real user, queued instances included (Linux's per-user sigqueue count). */
static uint64_t user_pending(uint32_t uid)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < task_slots; i++) {
		const struct task *o = &task_table[i];

		if (!task_alive(o) || o->cred.uid != uid)
			continue;
		n += bits(o->sig.pending.set) + o->sig.pending.nq;
		if (o == o->group_leader)
			n += bits(o->sighand->shared.set) + o->sighand->shared.nq;
	}
	return n;
}

/*
 * A real-time signal that cannot be queued (RLIMIT_SIGPENDING of the
 * target, or the set's queue full): sigqueue, tgkill and the kernel's own
 * senders with an info get -EAGAIN; kill's SI_USER (and no info) merges
 * with the pending one (Linux: the information is lost, kill succeeds).
 */
static int queue_refused(const struct ksiginfo *info)
{
	return info && info->code != SI_USER ? -EAGAIN : 0;
}

int signal_send(struct task *t, int sig, const struct ksiginfo *info, bool group)
{
	struct sigpending_set *set;
	bool over;

	if (sig < 1 || sig > NSIG)
		return -EINVAL;
	if (!task_alive(t))
		return 0; /* a zombie takes no more signals */
	prepare_signal(t, sig);
	if (sig == SIGCONT)
		ptrace_sigcont(t);
	if (sig_ignored(t, sig))
		return 0;
	set = group ? &t->sighand->shared : &t->sig.pending;
	over = sig >= SIGRTMIN_KERNEL &&
	       user_pending(t->cred.uid) >= rlimit_cur(t, RLIMIT_SIGPENDING);
	/*
	 * A standard signal already pending merges with it; a real-time one
	 * queues behind it, up to RLIMIT_SIGPENDING per user and
	 * SIGQUEUE_EXTRA per set.
	 */
	if (set->set & SIGBIT(sig)) {
		if (sig < SIGRTMIN_KERNEL)
			return 0;
		if (over || set->nq == SIGQUEUE_EXTRA)
			return queue_refused(info);
		set->q[set->nq] = info ? *info : (struct ksiginfo){.code = SI_KERNEL};
		set->q[set->nq++].signo = sig;
		complete_signal(t, sig, group);
		return 0;
	}
	if (over && queue_refused(info))
		return -EAGAIN;
	set->set |= SIGBIT(sig);
	set->info[sig - 1] = info ? *info : (struct ksiginfo){.code = SI_KERNEL};
	set->info[sig - 1].signo = sig;
	complete_signal(t, sig, group);
	return 0;
}

/*
 * Linux's force_sig_info: a signal the task cannot refuse (a fault, a bad
 * frame): unblocked, and back to the default action if it was blocked or
 * ignored.
 */
static void force_sig_info(struct task *t, int sig, const struct ksiginfo *info)
{
	struct k_sigaction *ka = &t->sighand->action[sig - 1];

	if ((t->sig.blocked & SIGBIT(sig)) || ka->handler == SIG_IGN) {
		ka->handler = SIG_DFL;
		t->sig.blocked &= ~SIGBIT(sig);
	}
	signal_send(t, sig, info, false);
	recalc(t);
}

static void force_sig(struct task *t, int sig)
{
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL};

	force_sig_info(t, sig, &info);
}

void signal_force(const struct trap_frame *tf, int sig, int code, uint64_t addr)
{
	struct task *t = current;
	struct ksiginfo info = {.signo = sig, .code = code, .addr = addr};

	if (tf->vector < 32) {
		info.trapno = (int32_t)tf->vector;
		t->sig.trap.trapno = tf->vector;
		/* #DB's error slot carries DR6 (debug.c); Linux reports error_code 0 for it. */
		t->sig.trap.err = tf->vector == 1 ? 0 : tf->error;
	}
	force_sig_info(t, sig, &info);
}

bool signal_unhandled(const struct task *t, int sig)
{
	const struct k_sigaction *ka = &t->sighand->action[sig - 1];

	/* A tracer may handle it (Linux unhandled_signal()). */
	if (t->tracer)
		return false;
	return ka->handler == SIG_DFL || ka->handler == SIG_IGN || (t->sig.blocked & SIGBIT(sig));
}

/* --- the FPU image --- */

static struct sigframe_fpu_cfg fpu_cfg;

/* The image format, once fpu.c has chosen it (first signal, after boot). */
static const struct sigframe_fpu_cfg *fpu_config(void)
{
	struct sigframe_fpu_cfg *c = &fpu_cfg;
	unsigned i;

	if (c->size)
		return c;
	c->xsave = fpu_uses_xsave();
	c->size = fpu_state_size();
	c->xfeatures = fpu_user_xfeatures();
	if (c->xsave) {
		uint32_t lo, hi;

		/* What XSAVE really saves: XCR0 as the CPU holds it (a nested hypervisor may differ). */
		__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		c->xfeatures &= lo | (uint64_t)hi << 32;
	}
	c->mxcsr_mask = fpu_mxcsr_mask();
	for (i = 2; c->xsave && i < SIGFRAME_XFEATURES_MAX; i++)
		if (c->xfeatures & BIT(i)) {
			struct cpuid_regs r = cpuid(0xd, i);

			c->comp_end[i] = r.ebx + r.eax;
		}
	return c;
}

uint32_t signal_fpu_frame_bytes(void)
{
	return sigframe_fpu_frame_bytes(fpu_config());
}

uint64_t signal_min_stack_size(void)
{
	return sigframe_min_stack_size(fpu_config());
}

/* The CPU's user FPU state into the frame (current's image is the buffer). */
int signal_fpu_to_user(struct task *t, uint64_t uaddr)
{
	const struct sigframe_fpu_cfg *c = fpu_config();
	uint32_t magic2 = FP_XSTATE_MAGIC2;
	uint8_t *img = t->arch.fpu;

	fpu_save(img);
	sigframe_fpu_export(c, img);
	if (copy_to_user(uaddr, img, c->size))
		return -EFAULT;
	if (c->xsave && copy_to_user(uaddr + c->size, &magic2, sizeof(magic2)))
		return -EFAULT;
	return 0;
}

/* rt_sigreturn's image: read, checked as the CPU would, loaded; else the FPU is reset. */
int signal_fpu_from_user(struct task *t, uint64_t buf)
{
	const struct sigframe_fpu_cfg *c = fpu_config();
	struct sigframe_fpu_plan p;
	uint8_t *img = t->arch.fpu;
	uint32_t off, magic2 = 0;

	if (!buf) {
		fpu_init_state(); /* a frame without FPU state: the handler's state goes */
		return 0;
	}
	if (!user_range_ok(buf, sigframe_fpu_frame_bytes(c)) ||
	    copy_from_user(img, buf, SF_FXSAVE_SIZE))
		goto bad;
	off = sigframe_fpu_magic2_offset(c, img);
	if (off && copy_from_user(&magic2, buf + off, sizeof(magic2)))
		goto bad;
	if (!sigframe_fpu_plan(c, img, magic2, &p))
		goto bad;
	if (p.copy > SF_FXSAVE_SIZE &&
	    copy_from_user(img + SF_FXSAVE_SIZE, buf + SF_FXSAVE_SIZE, p.copy - SF_FXSAVE_SIZE))
		goto bad;
	if (c->size > p.copy)
		memset(img + p.copy, 0, c->size - p.copy);
	/* Checked as the CPU checks: a restore that still faults is a bad frame too. */
	if (!sigframe_fpu_import(c, &p, img) || fpu_restore_safe(img))
		goto bad;
	return 0;
bad:
	fpu_init_state();
	return -EFAULT;
}

/* --- delivery --- */

/* Linux's force_valid_ss test: LAR, then a present DPL-3 read/write data segment. */
static bool ss_usable(uint16_t sel)
{
	uint32_t ar = 0;
	bool ok;

	__asm__("lar %[sel], %[ar]\n\tsetz %[ok]"
		: [ar] "=r"(ar), [ok] "=qm"(ok)
		: [sel] "rm"(sel)
		: "cc");
	if (!ok)
		return false;
	/* Type (without the accessed bit), S, DPL, P of the access rights. */
	ar &= (7u << 9) | (1u << 12) | (3u << 13) | (1u << 15);
	return ar == ((1u << 9) | (1u << 12) | (3u << 13) | (1u << 15)) || /* RW data */
	       ar == ((3u << 9) | (1u << 12) | (3u << 13) | (1u << 15));   /* RW expand-down */
}

void signal_siginfo_user(struct el_siginfo *si, const struct ksiginfo *k)
{
	int sig = k->signo;
	bool kernel_code = k->code > SI_USER && k->code < SI_KERNEL;

	memset(si, 0, sizeof(*si));
	si->si_signo = sig;
	si->si_errno = k->errno_;
	si->si_code = k->code;
	if (kernel_code && (SIG_SYNCHRONOUS & SIGBIT(sig)) && sig != SIGSYS) {
		si->u.fault.addr = k->addr;
	} else if (kernel_code && sig == SIGCHLD) {
		si->u.chld.pid = k->pid;
		si->u.chld.uid = (uint32_t)k->uid;
		si->u.chld.status = k->status;
	} else {
		si->u.kill.pid = k->pid;
		si->u.kill.uid = (uint32_t)k->uid;
		si->u.kill.value = k->addr; /* sigqueue's value (rt_sigqueueinfo), else 0 */
	}
}

/* Linux x64_setup_rt_frame with get_sigframe: 0, or -EFAULT (the signal becomes SIGSEGV). */
static int setup_rt_frame(struct task *t, struct trap_frame *tf, int sig,
			  const struct ksiginfo *info, const struct k_sigaction *ka)
{
	const struct sigframe_fpu_cfg *c = fpu_config();
	uint64_t mask = t->sig.restore_blocked ? t->sig.saved_blocked : t->sig.blocked;
	struct sigframe_layout l;
	struct sigframe_regs r;
	struct el_rt_sigframe f;

	/* x86-64 has no kernel-provided return path: the restorer is mandatory (musl sets it). */
	if (!(ka->flags & SA_RESTORER))
		return -EFAULT;
	if (!sigframe_place(&t->sig.altstack, tf->rsp, (ka->flags & SA_ONSTACK) != 0,
			    sigframe_fpu_frame_bytes(c), &l)) {
		kprintf("%s[%d] overflowed sigaltstack\n", t->comm, t->pid);
		return -EFAULT;
	}
	if (signal_fpu_to_user(t, l.fpstate))
		return -EFAULT;
	regs_get(&r, tf);
	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	f.uc.uc_flags = sigframe_uc_flags(&r, c->xsave);
	sigframe_altstack_get(&t->sig.altstack, tf->rsp, &f.uc.uc_stack);
	sigframe_save(&f.uc.uc_mcontext, &r, &t->sig.trap, mask, l.fpstate);
	f.uc.uc_sigmask = mask;
	if (ka->flags & SA_SIGINFO)
		signal_siginfo_user(&f.info, info);
	if (copy_to_user(l.frame, &f, sizeof(f)))
		return -EFAULT;
	if (t->sig.altstack.flags & SS_AUTODISARM)
		sigframe_altstack_reset(&t->sig.altstack);
	sigframe_enter_handler(&r, sig, l.frame, ka->handler, ss_usable);
	regs_put(tf, &r);
	return 0;
}

/* A frame that could not be written: SIGSEGV, with its default action if it was SIGSEGV. */
static void force_sigsegv(struct task *t, int sig)
{
	if (sig == SIGSEGV)
		t->sighand->action[SIGSEGV - 1].handler = SIG_DFL;
	force_sig(t, SIGSEGV);
}

static bool from_syscall(const struct trap_frame *tf)
{
	return tf_syscall_vector(tf) && tf->error != (uint64_t)-1;
}

/* Back to the SYSCALL instruction with the number as it was called (2 bytes: 0f 05). */
static void restart_syscall(struct trap_frame *tf, uint64_t nr)
{
	tf->rax = nr;
	tf->rip -= 2;
}

static void handle_signal(struct task *t, struct trap_frame *tf, int sig,
			  const struct ksiginfo *info, const struct k_sigaction *ka)
{
	uint64_t blocked;
	bool stepping = t->tracer && (t->work & TASK_WORK_SINGLESTEP);

	if (from_syscall(tf)) {
		switch ((int64_t)tf->rax) {
		case -ERESTART_RESTARTBLOCK:
		case -ERESTARTNOHAND:
			tf->rax = (uint64_t)-EINTR;
			break;
		case -ERESTARTSYS:
			if (!(ka->flags & SA_RESTART)) {
				tf->rax = (uint64_t)-EINTR;
				break;
			}
			/* fall through */
		case -ERESTARTNOINTR:
			restart_syscall(tf, tf->error);
			break;
		}
	}
	/* A tracer stepping the task: its TF stays out of the saved context (user_disable_single_step). */
	if (stepping) {
		t->work &= ~TASK_WORK_SINGLESTEP;
		if (t->ptrace_forced_tf)
			tf->rflags &= ~RFLAGS_TF;
		t->ptrace_forced_tf = false;
	}
	if ((ka->flags & SA_IA32_ABI) ? signal32_setup_frame(t, tf, sig, info, ka)
					 : setup_rt_frame(t, tf, sig, info, ka)) {
		force_sigsegv(t, sig);
		return;
	}
	/* The handler starts with DF clear (done above) and a fresh FPU. */
	fpu_init_state();
	blocked = t->sig.blocked | ka->mask;
	if (!(ka->flags & SA_NODEFER))
		blocked |= SIGBIT(sig);
	t->sig.restore_blocked = false; /* the frame holds the mask to go back to */
	signal_set_blocked(t, blocked);
	/* ... and it sees the handler's first instruction, as after a step (Linux ptrace_notify). */
	if (stepping) {
		struct ksiginfo step = {.signo = SIGTRAP, .code = SIGTRAP, .pid = t->tgid};

		ptrace_signal_stop(SIGTRAP, &step, tf);
	}
}

/* No handler ran: an interrupted syscall starts again, with the number it had. */
static void restart_no_handler(struct trap_frame *tf)
{
	if (!from_syscall(tf))
		return;
	switch ((int64_t)tf->rax) {
	case -ERESTARTNOHAND:
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
		restart_syscall(tf, tf->error);
		break;
	case -ERESTART_RESTARTBLOCK:
		/* int $0x80 and the fast compat entries: restart_syscall is i386 number 0. */
		restart_syscall(tf, tf->vector == TF_VECTOR_SYSCALL32 ? EL_NR32_restart_syscall
								 : EL_NR_restart_syscall);
		break;
	}
}

static __noreturn void default_kill(struct task *t, int sig)
{
	bool core = (SIG_DEFAULT_CORE & SIGBIT(sig)) != 0;

	kprintf("%s (pid %d) killed by signal %d\n", t->comm, t->pid, sig);
	task_exit_group(W_EXITCODE(0, sig) | (core ? WCOREFLAG : 0));
}

/* Thread's own signals first, then the process's; faults before the rest, then the lowest. */
static int dequeue(struct task *t, uint64_t allowed, struct ksiginfo *info)
{
	struct sigpending_set *sets[2] = {&t->sig.pending, &t->sighand->shared};
	unsigned i;

	for (i = 0; i < 2; i++) {
		uint64_t m = sets[i]->set & allowed;
		int sig;

		if (!m)
			continue;
		if (m & SIG_SYNCHRONOUS)
			m &= SIG_SYNCHRONOUS;
		sig = __builtin_ctzll(m) + 1;
		*info = sets[i]->info[sig - 1];
		if (!queue_next(sets[i], sig))
			sets[i]->set &= ~SIGBIT(sig);
		return sig;
	}
	return 0;
}

int signal_dequeue(struct task *t, uint64_t allowed, struct ksiginfo *info)
{
	int sig = dequeue(t, allowed, info);

	recalc(t);
	return sig;
}

void signal_deliver(struct trap_frame *tf)
{
	struct task *t = current;
	struct ksiginfo info;
	int sig;

	for (;;) {
		struct k_sigaction *ka;

		/* A SEIZE trap due (SIGCONT, INTERRUPT) comes before any signal (Linux get_signal). */
		if (t->ptrace_trap) {
			ptrace_trap_work();
			continue;
		}
		/* Another thread's group stop: this one stops too (Linux do_signal_stop). */
		if (t->job.stop_pending) {
			if (t->tracer)
				t->job.stop_pending = false;
			else
				jobctl_stop(t, 0);
			continue;
		}
		sig = dequeue(t, ~t->sig.blocked, &info);
		if (!sig)
			break;

		if (t->tracer && sig != SIGKILL) {
			sig = ptrace_signal_stop(sig, &info, tf);
			if (sig < 1 || sig > NSIG)
				continue;
			/* The tracer's signal, if blocked now, waits like any other. */
			if (t->sig.blocked & SIGBIT(sig)) {
				signal_send(t, sig, &info, false);
				continue;
			}
		}
		ka = &t->sighand->action[sig - 1];
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler != SIG_DFL) {
			struct k_sigaction act = *ka;

			if (act.flags & SA_RESETHAND)
				ka->handler = SIG_DFL;
			handle_signal(t, tf, sig, &info, &act);
			recalc(t);
			return;
		}
		if (SIG_DEFAULT_IGNORE & SIGBIT(sig))
			continue;
		if (SIG_DEFAULT_STOP & SIGBIT(sig)) {
			/* Traced: the tracer sees the stop (ptrace_event.c); else the group stops. */
			if (t->tracer)
				ptrace_group_stop(sig);
			else
				jobctl_stop(t, sig);
			continue;
		}
		default_kill(t, sig);
	}
	restart_no_handler(tf);
	if (t->sig.restore_blocked) {
		t->sig.restore_blocked = false;
		signal_set_blocked(t, t->sig.saved_blocked);
	}
	recalc(t);
}

/* --- rt_sigreturn --- */

long signal_sigreturn(struct trap_frame *tf)
{
	struct task *t = current;
	uint64_t frame = tf->rsp - sizeof(uint64_t); /* the handler's RET popped pretcode */
	struct el_rt_sigframe f;
	struct sigframe_regs r;

	/* The whole frame must be user memory; what is read is the ucontext. */
	if (!user_range_ok(frame, sizeof(f)) ||
	    copy_from_user(&f, frame, offsetof(struct el_rt_sigframe, info)))
		goto bad;
	signal_set_blocked(t, f.uc.uc_sigmask);
	regs_get(&r, tf);
	sigframe_restore(&r, &f.uc.uc_mcontext, f.uc.uc_flags, ss_usable);
	regs_put(tf, &r);
	if (signal_fpu_from_user(t, f.uc.uc_mcontext.fpstate))
		goto bad;
	/* Errors other than a fault are ignored, as Linux's restore_altstack does. */
	sigframe_altstack_set(&t->sig.altstack, tf->rsp, &f.uc.uc_stack, MINSIGSTKSZ);
	t->work |= TASK_WORK_FRAME;
	return (long)tf->rax;
bad:
	kprintf("%s[%d] bad frame in rt_sigreturn frame:%lx ip:%lx sp:%lx orax:%lx\n", t->comm,
		t->pid, frame, tf->rip, tf->rsp, tf->error);
	force_sig(t, SIGSEGV);
	t->work |= TASK_WORK_FRAME;
	return 0;
}

/* --- life cycle --- */

static struct sighand *sighand_alloc(void)
{
	uint64_t pa = frame_alloc_order(SIGHAND_ORDER);
	struct sighand *sh;

	if (!pa)
		return 0;
	sh = phys_to_virt(pa);
	memset(sh, 0, sizeof(*sh));
	sh->refs = 1;
	return sh;
}

static void sighand_put(struct sighand *sh)
{
	if (sh && !--sh->refs)
		frame_free_order(virt_to_phys(sh), SIGHAND_ORDER);
}

int signal_task_init(struct task *child, const struct task *parent, uint64_t clone_flags)
{
	memset(&child->sig, 0, sizeof(child->sig));
	sigframe_altstack_reset(&child->sig.altstack);
	child->work &= ~TASK_WORK_SIGPENDING;
	if (parent && (clone_flags & CLONE_SIGHAND)) {
		child->sighand = parent->sighand;
		child->sighand->refs++;
	} else {
		child->sighand = sighand_alloc();
		if (!child->sighand)
			return -ENOMEM;
		if (parent)
			memcpy(child->sighand->action, parent->sighand->action,
			       sizeof(child->sighand->action));
	}
	if (!parent)
		return 0;
	child->sig.blocked = parent->sig.blocked;
	/* A thread sharing the stack range (CLONE_VM without vfork) must not share the altstack. */
	if ((clone_flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM)
		child->sig.altstack = parent->sig.altstack;
	return 0;
}

void signal_task_release(struct task *t)
{
	struct sighand *sh = t->sighand;

	if (!sh)
		return;
	/* What was waiting for this thread in the process's set goes to another one. */
	retarget_shared(t, ~0ull);
	t->sighand = 0;
	t->sig.pending.set = 0;
	t->sig.pending.nq = 0;
	t->work &= ~TASK_WORK_SIGPENDING;
	sighand_put(sh);
}

void signal_exec_reset(struct task *t)
{
	struct k_sigaction *ka;
	unsigned i;

	/* Actions shared with another process (CLONE_SIGHAND) are unshared: exec changes them. */
	if (t->sighand->refs > 1) {
		struct sighand *sh = sighand_alloc();

		if (sh) {
			memcpy(sh->action, t->sighand->action, sizeof(sh->action));
			sh->shared = t->sighand->shared;
			sighand_put(t->sighand);
			t->sighand = sh;
		}
	}
	for (i = 0; i < NSIG; i++) {
		ka = &t->sighand->action[i];
		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = 0;
		ka->mask = 0;
	}
	sigframe_altstack_reset(&t->sig.altstack);
	t->sig.restore_blocked = false;
	memset(&t->sig.trap, 0, sizeof(t->sig.trap));
}

void signal_action_changed(struct task *t, int sig)
{
	/* POSIX: an action that now ignores a pending signal discards it, blocked or not. */
	if (handler_ignores(&t->sighand->action[sig - 1], sig))
		flush_pending(t, SIGBIT(sig));
}
