/*
 * Signals of i386 processes, as a 64-bit Linux kernel gives them
 * (arch/x86/ia32/ia32_signal.c, fpu/signal.c; layouts: signal_frame32.h).
 *
 *   rt_sigaction (i386 174)  the 20-byte struct sigaction of i386 (handler,
 *                  flags, restorer as u32, the 8-byte mask); the action is
 *                  marked SA_IA32_ABI (Linux's way of choosing the frame:
 *                  by how the action was set, not by the process);
 *   delivery       for an SA_IA32_ABI action (signal.c calls
 *                  signal32_setup_frame): below the interrupted ESP (no red
 *                  zone) or at the top of the alternate stack, the FPU area
 *                  first: the FXSAVE/XSAVE image 64-byte aligned (its
 *                  software bytes' extended_size counting the 112-byte
 *                  header), and below it the FSAVE-format header Linux
 *                  writes (convert_from_fxsr: full tag word, FIP, FOO, FCS
 *                  from CS, FOS from DS, the eight registers; status, magic
 *                  0), sc.fpstate pointing at it; then the frame, ESP + 4
 *                  16-byte aligned.  sigframe_ia32 without SA_SIGINFO
 *                  (EAX = sig, EDX = ECX = 0), rt_sigframe_ia32 with it
 *                  (EDX = &info, ECX = &uc, uc_flags UC_FP_XSTATE when the
 *                  image is XSAVE's).  The return address: sa_restorer with
 *                  SA_RESTORER, else the frame's retcode (Linux's bytes:
 *                  there is no vdso32 here).  The handler runs with CS =
 *                  USER32_CS, SS = DS = ES = USER_DS, DF, RF and TF clear;
 *   sigreturn (119), rt_sigreturn (173)  ia32_restore_sigcontext: EAX..EDI,
 *                  ESP, EIP zero-extended (R8-R15 as they are), CS and SS
 *                  with RPL 3, the FIX_EFLAGS bits, no restart; GS, FS, DS,
 *                  ES reloaded (RPL 3) when they differ; the FPU image
 *                  checked and restored as signal.c does, then the FSAVE
 *                  header's environment and registers over it
 *                  (convert_to_fxsr); the mask (and for rt the alternate
 *                  stack).  A frame that cannot be read is SIGSEGV.
 * Not here: the legacy stack switch to sa_restorer when SS is not USER_DS
 * (an i386 relic Linux keeps), sigaction (67), sigsuspend (72), old
 * sigprocmask (126), sigaltstack (186: compat_stack_t), the x32 ABI.
 */
#include "arch/x86_64/entry/trapframe.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/segment.h"
#include "arch/x86_64/segregs.h"
#include "arch/x86_64/x86.h"
#include "lib/kprintf.h"
#include "lib/string.h"
#include "proc/process.h"
#include "proc/sigframe.h"
#include "proc/signal.h"
#include "proc/signal32.h"
#include "proc/signal_frame32.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define SIG32_KERNEL_ONLY SIG_KERNEL_ONLY
#define SIG32_SYNCHRONOUS (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
			   SIGBIT(SIGFPE))
#define NR32_SIGRETURN 119
#define NR32_RT_SIGRETURN 173
#define FX_SW_EXTENDED_SIZE 468 /* offset of _fpx_sw_bytes.extended_size in the FXSAVE image */

/* The FXSAVE image's x87 part (struct fxregs_state, 64-bit format) */
struct fx_x87 {
	uint16_t cwd, swd;
	uint8_t ftw, pad0;
	uint16_t fop;
	uint64_t rip, rdp;
	uint32_t mxcsr, mxcsr_mask;
	uint8_t st[8][16];
};

/* The full tag of one register from its contents (Intel SDM: FSAVE's tag word). */
static uint32_t full_tag(const uint8_t *reg)
{
	uint16_t exp = (uint16_t)(reg[8] | reg[9] << 8) & 0x7fff;
	uint64_t mant;

	memcpy(&mant, reg, sizeof(mant));
	if (exp == 0x7fff)
		return 2; /* special: NaN, infinity */
	if (exp == 0)
		return mant ? 2 : 1; /* denormal: special; zero */
	return (mant >> 63) ? 0 : 2; /* valid with the integer bit, else unnormal: special */
}

/* FXSAVE's abridged tag (1: not empty, by physical register) -> FSAVE's tag word. */
static void env_from_fx(struct fpstate32_env *e, const struct fx_x87 *fx, uint16_t cs, uint16_t ds)
{
	unsigned top = (fx->swd >> 11) & 7, i;
	uint32_t twd = 0;

	for (i = 0; i < 8; i++) /* st(j) is physical register (top + j) & 7 */
		twd |= ((fx->ftw >> i) & 1 ? full_tag(fx->st[(i - top) & 7]) : 3u) << (2 * i);
	e->cwd = fx->cwd | 0xffff0000u;
	e->swd = fx->swd | 0xffff0000u;
	e->twd = twd | 0xffff0000u;
	e->fip = (uint32_t)fx->rip;
	e->fcs = cs; /* the selector at the fault is not kept in 64-bit mode: CS, as Linux */
	e->foo = (uint32_t)fx->rdp;
	e->fos = ds | 0xffff0000u;
	for (i = 0; i < 8; i++)
		memcpy(e->st_space + 10 * i, fx->st[i], 10);
	e->status = fx->swd;
	e->magic = X86_FXSR_MAGIC;
}

/* The header's environment back into the image (convert_to_fxsr). */
static void env_to_fx(struct fx_x87 *fx, const struct fpstate32_env *e)
{
	unsigned i;

	fx->cwd = (uint16_t)e->cwd;
	fx->swd = (uint16_t)e->swd;
	fx->ftw = 0;
	for (i = 0; i < 8; i++)
		fx->ftw |= (uint8_t)((((e->twd >> (2 * i)) & 3) != 3) << i);
	fx->fop = (uint16_t)(e->fcs >> 16);
	fx->rip = e->fip;
	fx->rdp = e->foo;
	for (i = 0; i < 8; i++)
		memcpy(fx->st[i], e->st_space + 10 * i, 10);
}

/* --- rt_sigaction --- */

struct sigaction32 {
	uint32_t handler, flags, restorer;
	uint32_t mask[2];
};

/* rt_sigaction(sig, const struct sigaction32 *act, struct sigaction32 *oact, sigsetsize) */
COMPAT_SYSCALL_DEFINE4(rt_sigaction, int, sig, uint64_t, act, uint64_t, oact, uint64_t, sigsetsize)
{
	struct sigaction32 a, o;
	struct k_sigaction *ka;

	if (sigsetsize != sizeof(a.mask))
		return -EINVAL;
	if (act && copy_from_user(&a, act, sizeof(a)))
		return -EFAULT;
	if (sig < 1 || sig > SIG_NSIG || (act && (SIG32_KERNEL_ONLY & SIGBIT(sig))))
		return -EINVAL;
	ka = &current->sighand->action[sig - 1];
	o = (struct sigaction32){(uint32_t)ka->handler, (uint32_t)(ka->flags & SA_UAPI_FLAGS),
				 (uint32_t)ka->restorer, {(uint32_t)ka->mask,
							  (uint32_t)(ka->mask >> 32)}};
	if (act) {
		*ka = (struct k_sigaction){
			.handler = a.handler,
			.flags = (a.flags & SA_UAPI_FLAGS) | SA_IA32_ABI,
			.restorer = a.restorer,
			.mask = ((uint64_t)a.mask[1] << 32 | a.mask[0]) & ~SIG32_KERNEL_ONLY,
		};
		signal_action_changed(current, sig);
	}
	if (oact && copy_to_user(oact, &o, sizeof(o)))
		return -EFAULT;
	return 0;
}

/* --- delivery --- */

static void siginfo32(struct siginfo32 *s, const struct ksiginfo *k)
{
	bool kernel_code = k->code > SI_USER && k->code < SI_KERNEL;

	memset(s, 0, sizeof(*s));
	s->si_signo = k->signo;
	s->si_errno = k->errno_;
	s->si_code = k->code;
	if (kernel_code && (SIG32_SYNCHRONOUS & SIGBIT(k->signo))) {
		s->u.fault.addr = (uint32_t)k->addr;
	} else if (kernel_code && k->signo == SIGCHLD) {
		s->u.chld.pid = k->pid;
		s->u.chld.uid = (uint32_t)k->uid;
		s->u.chld.status = k->status;
	} else {
		s->u.kill.pid = k->pid;
		s->u.kill.uid = (uint32_t)k->uid;
		s->u.kill.value = (uint32_t)k->addr;
	}
}

/* ia32_setup_sigcontext */
static void save_sc(struct sigcontext32 *sc, const struct task *t, const struct trap_frame *tf,
		    uint64_t mask, uint32_t fpstate)
{
	*sc = (struct sigcontext32){
		.gs = seg_read_gs(), .fs = seg_read_fs(), .es = seg_read_es(), .ds = seg_read_ds(),
		.edi = (uint32_t)tf->rdi, .esi = (uint32_t)tf->rsi, .ebp = (uint32_t)tf->rbp,
		.esp = (uint32_t)tf->rsp, .ebx = (uint32_t)tf->rbx, .edx = (uint32_t)tf->rdx,
		.ecx = (uint32_t)tf->rcx, .eax = (uint32_t)tf->rax,
		.trapno = (uint32_t)t->sig.trap.trapno, .err = (uint32_t)t->sig.trap.err,
		.eip = (uint32_t)tf->rip, .cs = (uint16_t)tf->cs, .eflags = (uint32_t)tf->rflags,
		.esp_at_signal = (uint32_t)tf->rsp, .ss = (uint16_t)tf->ss, .fpstate = fpstate,
		.oldmask = (uint32_t)mask, .cr2 = (uint32_t)t->sig.trap.cr2,
	};
}

/*
 * get_sigframe for an ia32 frame: the FPU area (header + image) and then
 * frame_size bytes below; *fpstate: the header.  0 when it would overflow
 * the alternate stack.
 */
static uint64_t place(const struct task *t, const struct trap_frame *tf, bool onstack,
		      uint64_t frame_size, uint64_t *fpstate)
{
	const struct sigframe_altstack *a = &t->sig.altstack;
	uint64_t sp = (uint32_t)tf->rsp;
	bool nested = sigframe_altstack_on(a, sp), entering = false;

	if (onstack && sigframe_altstack_mode(a, sp) == 0) {
		sp = a->sp + a->size;
		entering = true;
	}
	sp = (sp - signal_fpu_frame_bytes()) & ~63ull;
	sp -= sizeof(struct fpstate32_env);
	*fpstate = sp;
	sp = ((sp - frame_size + 4) & ~15ull) - 4;
	if ((nested || entering) && !sigframe_altstack_contains(a, sp))
		return 0;
	return sp;
}

/* The FPU area: the image above, its header below (copy_fpstate_to_sigframe for ia32). */
static int fpu32_to_user(struct task *t, const struct trap_frame *tf, uint64_t fpstate)
{
	uint64_t fx = fpstate + sizeof(struct fpstate32_env);
	struct fpstate32_env env;
	struct fx_x87 x87;
	uint32_t ext;

	if (signal_fpu_to_user(t, fx))
		return -EFAULT;
	/* signal_fpu_to_user left the image it wrote in t->arch.fpu. */
	memcpy(&x87, t->arch.fpu, sizeof(x87));
	memcpy(&ext, (uint8_t *)t->arch.fpu + FX_SW_EXTENDED_SIZE, sizeof(ext));
	ext += sizeof(env); /* Linux's fx_sw_reserved_ia32 counts the header */
	env_from_fx(&env, &x87, (uint16_t)tf->cs, seg_read_ds());
	if (copy_to_user(fpstate, &env, sizeof(env)) ||
	    copy_to_user(fx + FX_SW_EXTENDED_SIZE, &ext, sizeof(ext)))
		return -EFAULT;
	return 0;
}

/* The handler's registers (the end of ia32_setup_frame / ia32_setup_rt_frame). */
static void enter_handler(struct task *t, struct trap_frame *tf, uint64_t frame, int sig,
			  uint64_t handler, uint64_t edx, uint64_t ecx)
{
	tf->rsp = frame;
	tf->rip = (uint32_t)handler;
	tf->rax = (uint32_t)sig;
	tf->rdx = edx;
	tf->rcx = ecx;
	t->arch.ds = t->arch.es = seg_load_es(seg_load_ds(USER_DS));
	tf->cs = USER32_CS;
	tf->ss = USER_DS;
	tf->rflags &= ~(RFLAGS_DF | RFLAGS_RF | RFLAGS_TF);
}

int signal32_setup_frame(struct task *t, struct trap_frame *tf, int sig,
			 const struct ksiginfo *info, const struct k_sigaction *ka)
{
	static const uint8_t ret_sigreturn[8] = {0x58, 0xb8, NR32_SIGRETURN, 0, 0, 0, 0xcd, 0x80};
	static const uint8_t ret_rt[8] = {0xb8, NR32_RT_SIGRETURN, 0, 0, 0, 0xcd, 0x80, 0};
	uint64_t mask = t->sig.restore_blocked ? t->sig.saved_blocked : t->sig.blocked;
	bool rt = (ka->flags & SA_SIGINFO) != 0, onstack = (ka->flags & SA_ONSTACK) != 0;
	uint64_t fpstate, frame;

	frame = place(t, tf, onstack, rt ? sizeof(struct rt_sigframe32) : sizeof(struct sigframe32),
		      &fpstate);
	if (!frame || frame >= IA32_TASK_SIZE) {
		kprintf("%s[%d] overflowed sigaltstack\n", t->comm, t->pid);
		return -EFAULT;
	}
	if (fpu32_to_user(t, tf, fpstate))
		return -EFAULT;
	if (rt) {
		struct rt_sigframe32 f;
		struct el_stack st;

		memset(&f, 0, sizeof(f));
		f.sig = sig;
		f.pinfo = (uint32_t)(frame + offsetof(struct rt_sigframe32, info));
		f.puc = (uint32_t)(frame + offsetof(struct rt_sigframe32, uc));
		f.pretcode = (ka->flags & SA_RESTORER) ? (uint32_t)ka->restorer
						       : (uint32_t)(frame + offsetof(struct rt_sigframe32,
										retcode));
		siginfo32(&f.info, info);
		f.uc.uc_flags = signal_fpu_frame_bytes() > SF_FXSAVE_SIZE ? UC_FP_XSTATE : 0;
		sigframe_altstack_get(&t->sig.altstack, tf->rsp, &st);
		f.uc.uc_stack = (struct stack32){(uint32_t)st.ss_sp, st.ss_flags,
						 (uint32_t)st.ss_size};
		save_sc(&f.uc.uc_mcontext, t, tf, mask, (uint32_t)fpstate);
		f.uc.uc_sigmask[0] = (uint32_t)mask;
		f.uc.uc_sigmask[1] = (uint32_t)(mask >> 32);
		memcpy(f.retcode, ret_rt, sizeof(f.retcode));
		if (copy_to_user(frame, &f, sizeof(f)))
			return -EFAULT;
		if (t->sig.altstack.flags & SS_AUTODISARM)
			sigframe_altstack_reset(&t->sig.altstack);
		enter_handler(t, tf, frame, sig, ka->handler, f.pinfo, f.puc);
	} else {
		struct sigframe32 f;

		memset(&f, 0, sizeof(f));
		f.sig = sig;
		f.pretcode = (ka->flags & SA_RESTORER) ? (uint32_t)ka->restorer
						       : (uint32_t)(frame + offsetof(struct sigframe32,
										retcode));
		save_sc(&f.sc, t, tf, mask, (uint32_t)fpstate);
		f.extramask[0] = (uint32_t)(mask >> 32);
		memcpy(f.retcode, ret_sigreturn, sizeof(f.retcode));
		if (copy_to_user(frame, &f, sizeof(f)))
			return -EFAULT;
		enter_handler(t, tf, frame, sig, ka->handler, 0, 0);
	}
	return 0;
}

/* --- sigreturn, rt_sigreturn --- */

/* Each of GS, FS, DS, ES that the handler left different is loaded from sc (RPL 3). */
static void reload_segments(struct task *t, const struct sigcontext32 *sc)
{
	uint16_t gs = sc->gs | 3, fs = sc->fs | 3, ds = sc->ds | 3, es = sc->es | 3;

	if (seg_read_gs() != gs)
		t->arch.gsindex = seg_load_user_gs(gs);
	if (seg_read_fs() != fs)
		t->arch.fsindex = seg_load_fs(fs);
	if (seg_read_ds() != ds)
		t->arch.ds = seg_load_ds(ds);
	if (seg_read_es() != es)
		t->arch.es = seg_load_es(es);
}

/* The FPU from the frame: the image, then the header's environment over it. */
static int fpu32_from_user(struct task *t, uint32_t fpstate)
{
	struct fpstate32_env env;
	struct fx_x87 x87;

	if (!fpstate)
		return signal_fpu_from_user(t, 0);
	if (copy_from_user(&env, fpstate, sizeof(env)) ||
	    signal_fpu_from_user(t, fpstate + sizeof(env)))
		return -EFAULT;
	memcpy(&x87, t->arch.fpu, sizeof(x87));
	env_to_fx(&x87, &env);
	memcpy(t->arch.fpu, &x87, sizeof(x87));
	if (fpu_restore_safe(t->arch.fpu)) {
		fpu_init_state(); /* as signal_fpu_from_user: a bad frame leaves a clean FPU */
		return -EFAULT;
	}
	return 0;
}

static int restore_sc(struct task *t, struct trap_frame *tf, const struct sigcontext32 *sc)
{
	tf->rbx = sc->ebx;
	tf->rcx = sc->ecx;
	tf->rdx = sc->edx;
	tf->rsi = sc->esi;
	tf->rdi = sc->edi;
	tf->rbp = sc->ebp;
	tf->rax = sc->eax;
	tf->rsp = sc->esp;
	tf->rip = sc->eip;
	tf->cs = sc->cs | 3u;
	tf->ss = sc->ss | 3u;
	tf->rflags = (tf->rflags & ~SIGFRAME_FIX_EFLAGS) | (sc->eflags & SIGFRAME_FIX_EFLAGS);
	tf->error = (uint64_t)-1; /* no syscall to restart */
	reload_segments(t, sc);
	return fpu32_from_user(t, sc->fpstate);
}

static long bad_frame(struct task *t, struct trap_frame *tf, const char *what, uint64_t frame)
{
	kprintf("%s[%d] bad frame in %s frame:%lx ip:%lx sp:%lx\n", t->comm, t->pid, what, frame,
		tf->rip, tf->rsp);
	signal_force(tf, SIGSEGV, SI_KERNEL, 0);
	t->work |= TASK_WORK_FRAME;
	return 0;
}

/* sigreturn: the handler's RET popped pretcode, the retcode's POP took sig: ESP - 8. */
COMPAT_SYSCALL_DEFINE0(sigreturn)
{
	struct task *t = current;
	struct trap_frame *tf = task_user_frame(t);
	uint64_t frame = (uint32_t)(tf->rsp - 8);
	struct sigframe32 f;

	if (copy_from_user(&f, frame, sizeof(f)))
		return bad_frame(t, tf, "32bit sigreturn", frame);
	signal_set_blocked(t, (uint64_t)f.extramask[0] << 32 | f.sc.oldmask);
	if (restore_sc(t, tf, &f.sc))
		return bad_frame(t, tf, "32bit sigreturn", frame);
	t->work |= TASK_WORK_FRAME;
	return (long)tf->rax;
}

/* rt_sigreturn: the handler's RET popped pretcode: ESP - 4. */
COMPAT_SYSCALL_DEFINE0(rt_sigreturn)
{
	struct task *t = current;
	struct trap_frame *tf = task_user_frame(t);
	uint64_t frame = (uint32_t)(tf->rsp - 4);
	struct rt_sigframe32 f;
	struct el_stack st;

	if (copy_from_user(&f, frame, sizeof(f)))
		return bad_frame(t, tf, "32bit rt_sigreturn", frame);
	signal_set_blocked(t, (uint64_t)f.uc.uc_sigmask[1] << 32 | f.uc.uc_sigmask[0]);
	if (restore_sc(t, tf, &f.uc.uc_mcontext))
		return bad_frame(t, tf, "32bit rt_sigreturn", frame);
	st = (struct el_stack){f.uc.uc_stack.ss_sp, f.uc.uc_stack.ss_flags, 0,
			       f.uc.uc_stack.ss_size};
	/* Errors other than a fault are ignored, as Linux's compat_restore_altstack does. */
	sigframe_altstack_set(&t->sig.altstack, tf->rsp, &st, MINSIGSTKSZ);
	t->work |= TASK_WORK_FRAME;
	return (long)tf->rax;
}
