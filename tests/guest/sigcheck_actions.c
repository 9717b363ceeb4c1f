/*
 * sigcheck actions: rt_sigaction and the ways a signal is sent to oneself.
 *   raise/kill/tkill/tgkill -> the handler runs with SI_TKILL or SI_USER and
 *   our pid; SA_RESETHAND, SA_NODEFER, sa_mask and uc_sigmask (read and
 *   edited) as Linux applies them; SIG_IGN and default-ignored signals; the
 *   argument checks of rt_sigaction and kill.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/sys.h"
#include "sigcheck.h"

/* The kernel's struct sigaction for x86-64 (what rt_sigaction reads and writes). */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static long raw_sigaction(long sig, const struct k_sigaction *act, struct k_sigaction *old,
			  long size)
{
	return el_syscall4(SYS_rt_sigaction, sig, (long)act, (long)old, size);
}

static void senders(void)
{
	pid_t pid = getpid();
	int tid = (int)el_syscall1(SYS_gettid, 0);

	sc_install(SIGUSR1, sc_record_handler, 0);
	sc_reset();
	raise(SIGUSR1);
	el_expect("send.raise", sc_seen.count == 1 && sc_seen.si.si_signo == SIGUSR1 &&
			  sc_seen.si.si_code == SI_TKILL && sc_seen.si.si_pid == pid &&
			  sc_seen.si.si_uid == getuid(),
		  "count %d signo %d si_code %d (want SI_TKILL %d) si_pid %d (want %d)",
		  sc_seen.count, sc_seen.si.si_signo, sc_seen.si.si_code, SI_TKILL,
		  sc_seen.si.si_pid, pid);
	sc_reset();
	el_expect("send.kill_returns_0", kill(pid, SIGUSR1) == 0, "kill: %s", strerror(errno));
	el_expect("send.kill", sc_seen.count == 1 && sc_seen.si.si_code == SI_USER &&
			  sc_seen.si.si_pid == pid,
		  "count %d si_code %d (want SI_USER) si_pid %d", sc_seen.count, sc_seen.si.si_code,
		  sc_seen.si.si_pid);
	sc_reset();
	el_syscall3(SYS_tgkill, pid, tid, SIGUSR1);
	el_expect("send.tgkill", sc_seen.count == 1 && sc_seen.si.si_code == SI_TKILL &&
			  sc_seen.si.si_pid == pid,
		  "count %d si_code %d si_pid %d", sc_seen.count, sc_seen.si.si_code,
		  sc_seen.si.si_pid);
	sc_reset();
	el_syscall2(SYS_tkill, tid, SIGUSR1);
	el_expect("send.tkill", sc_seen.count == 1 && sc_seen.si.si_code == SI_TKILL,
		  "count %d si_code %d", sc_seen.count, sc_seen.si.si_code);

	el_expect("send.kill_sig0_probes", el_syscall2(SYS_kill, pid, 0) == 0 && sc_seen.count == 1,
		  "kill(self, 0) must succeed and deliver nothing");
	el_expect("send.kill_bad_signal", el_syscall2(SYS_kill, pid, 65) == -EINVAL,
		  "kill(self, 65): %ld", el_syscall2(SYS_kill, pid, 65));
	el_expect("send.kill_no_such_pid", el_syscall2(SYS_kill, 0x3fffffff, SIGUSR1) == -ESRCH,
		  "kill(0x3fffffff): %ld", el_syscall2(SYS_kill, 0x3fffffff, SIGUSR1));
	el_expect("send.tgkill_wrong_tgid",
		  el_syscall3(SYS_tgkill, 0x3fffffff, tid, SIGUSR1) == -ESRCH && sc_seen.count == 1,
		  "tgkill with a wrong tgid must be ESRCH and deliver nothing");
	el_expect("send.tgkill_bad_tid", el_syscall3(SYS_tgkill, pid, 0, SIGUSR1) == -EINVAL,
		  "tgkill(pid, 0): %ld", el_syscall3(SYS_tgkill, pid, 0, SIGUSR1));
	sc_default(SIGUSR1);
}

static int plain_signo;

static void plain_handler(int sig)
{
	plain_signo = sig;
}

static void plain(void)
{
	signal(SIGUSR2, plain_handler);
	raise(SIGUSR2);
	el_expect("action.plain_handler_gets_signo", plain_signo == SIGUSR2, "got %d",
		  plain_signo);
	sc_default(SIGUSR2);
}

static int depth, max_depth, runs;
static uint64_t inside_mask;
static void *inside_action;

static void nesting_handler(int sig, siginfo_t *si, void *ctx)
{
	struct sigaction now;

	(void)si;
	(void)ctx;
	runs++;
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	inside_mask = sc_mask_now();
	sigaction(sig, NULL, &now);
	inside_action = (void *)now.sa_handler;
	if (runs == 1)
		raise(sig);
	depth--;
}

static void nesting(const char *name, int flags, int want_max, int want_blocked)
{
	runs = depth = max_depth = 0;
	sc_install(SIGUSR1, nesting_handler, flags);
	raise(SIGUSR1);
	el_expect(name,
		  runs == 2 && max_depth == want_max &&
			  !!(inside_mask & SC_BIT(SIGUSR1)) == want_blocked &&
			  !(sc_mask_now() & SC_BIT(SIGUSR1)),
		  "runs %d (want 2) max depth %d (want %d) blocked inside %d (want %d)", runs,
		  max_depth, want_max, !!(inside_mask & SC_BIT(SIGUSR1)), want_blocked);
	sc_default(SIGUSR1);
}

/* SA_RESETHAND: back to SIG_DFL when the handler starts; Linux still blocks the signal. */
static void resethand(void)
{
	struct sigaction after;

	runs = 0;
	inside_action = NULL;
	sc_install(SIGUSR1, nesting_handler, SA_RESETHAND);
	runs = 1; /* no re-raise: a second SIGUSR1 would now kill */
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &after);
	el_expect("action.sa_resethand",
		  runs == 2 && inside_action == (void *)SIG_DFL && after.sa_handler == SIG_DFL &&
			  (inside_mask & SC_BIT(SIGUSR1)),
		  "ran %d, handler inside %p after %p (want SIG_DFL), blocked inside %d", runs - 1,
		  inside_action, (void *)after.sa_handler, !!(inside_mask & SC_BIT(SIGUSR1)));
	sc_default(SIGUSR1);
}

static void sa_mask_applies(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sc_record_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaddset(&sa.sa_mask, SIGPROF);
	sigaction(SIGUSR1, &sa, NULL);
	sc_reset();
	raise(SIGUSR1);
	el_expect("action.sa_mask_blocked_inside",
		  (sc_seen.mask_inside & (SC_BIT(SIGUSR1) | SC_BIT(SIGUSR2) | SC_BIT(SIGPROF))) ==
				  (SC_BIT(SIGUSR1) | SC_BIT(SIGUSR2) | SC_BIT(SIGPROF)) &&
			  !(sc_mask_now() & (SC_BIT(SIGUSR2) | SC_BIT(SIGPROF) | SC_BIT(SIGUSR1))),
		  "mask inside %#llx, after %#llx", (unsigned long long)sc_seen.mask_inside,
		  (unsigned long long)sc_mask_now());
	sc_default(SIGUSR1);
}

static void add_sigprof_to_uc_mask(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_record(sig, si, ctx);
	sigaddset(&uc->uc_sigmask, SIGPROF);
	sigdelset(&uc->uc_sigmask, SIGUSR2);
}

/* uc_sigmask holds the mask from before the delivery; sigreturn installs whatever it then says. */
static void uc_sigmask(void)
{
	uint64_t after;

	sc_block(SC_BIT(SIGUSR2));
	sc_install(SIGUSR1, add_sigprof_to_uc_mask, 0);
	sc_reset();
	raise(SIGUSR1);
	after = sc_mask_now();
	el_expect("action.uc_sigmask_is_mask_before",
		  (sc_seen.uc_mask & SC_BIT(SIGUSR2)) && !(sc_seen.uc_mask & SC_BIT(SIGUSR1)),
		  "uc_sigmask %#llx: want SIGUSR2 (blocked before), not SIGUSR1",
		  (unsigned long long)sc_seen.uc_mask);
	el_expect("action.uc_sigmask_edit_applied",
		  (after & SC_BIT(SIGPROF)) && !(after & (SC_BIT(SIGUSR2) | SC_BIT(SIGUSR1))),
		  "mask after sigreturn %#llx: want SIGPROF only", (unsigned long long)after);
	sc_unblock(SC_BIT(SIGPROF) | SC_BIT(SIGUSR2));
	sc_default(SIGUSR1);
}

static void ignored(void)
{
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	el_pass("action.sig_ign_survives");
	sc_block(SC_BIT(SIGUSR2));
	sc_install(SIGUSR2, sc_record_handler, 0);
	raise(SIGUSR2);
	signal(SIGUSR2, SIG_IGN); /* discards the pending one */
	el_expect("action.sig_ign_discards_pending", !(sc_pending_now() & SC_BIT(SIGUSR2)),
		  "pending %#llx", (unsigned long long)sc_pending_now());
	sc_unblock(SC_BIT(SIGUSR2));
	sc_default(SIGUSR1);
	sc_default(SIGUSR2);
	raise(SIGCHLD);
	raise(SIGWINCH);
	raise(SIGURG);
	el_pass("action.default_ignored_survive");
}

static void argument_checks(void)
{
	struct k_sigaction act = {.handler = (void *)plain_handler}, old;
	struct sigaction sa;

	el_expect("sigaction.sigkill_einval", raw_sigaction(SIGKILL, &act, NULL, 8) == -EINVAL,
		  "rt_sigaction(SIGKILL): %ld", raw_sigaction(SIGKILL, &act, NULL, 8));
	el_expect("sigaction.sigstop_einval", raw_sigaction(SIGSTOP, &act, NULL, 8) == -EINVAL,
		  "rt_sigaction(SIGSTOP): %ld", raw_sigaction(SIGSTOP, &act, NULL, 8));
	el_expect("sigaction.query_sigkill_ok", raw_sigaction(SIGKILL, NULL, &old, 8) == 0,
		  "querying SIGKILL: %ld", raw_sigaction(SIGKILL, NULL, &old, 8));
	el_expect("sigaction.signo_0_einval", raw_sigaction(0, NULL, &old, 8) == -EINVAL,
		  "rt_sigaction(0): %ld", raw_sigaction(0, NULL, &old, 8));
	el_expect("sigaction.signo_65_einval", raw_sigaction(65, NULL, &old, 8) == -EINVAL,
		  "rt_sigaction(65): %ld", raw_sigaction(65, NULL, &old, 8));
	el_expect("sigaction.sigsetsize_einval", raw_sigaction(SIGUSR1, NULL, &old, 16) == -EINVAL,
		  "rt_sigaction(size 16): %ld", raw_sigaction(SIGUSR1, NULL, &old, 16));

	/* What musl installs comes back as the kernel stored it: SA_RESTORER and its restorer. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sc_record_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGPROF);
	sigaction(SIGUSR1, &sa, NULL);
	memset(&old, 0, sizeof(old));
	el_expect("sigaction.round_trip",
		  raw_sigaction(SIGUSR1, NULL, &old, 8) == 0 &&
			  old.handler == (void *)sc_record_handler &&
			  (old.flags & ~(unsigned long)SA_RESTORER) ==
				  (SA_SIGINFO | SA_ONSTACK | SA_RESTART) &&
			  (old.flags & SA_RESTORER) && old.restorer && old.mask == SC_BIT(SIGPROF),
		  "handler %p flags %#lx restorer %p mask %#llx", old.handler, old.flags, old.restorer,
		  (unsigned long long)old.mask);
	sc_default(SIGUSR1);
}

void sc_actions(void)
{
	senders();
	plain();
	nesting("action.default_defers_nested", 0, 1, 1);
	nesting("action.sa_nodefer_nests", SA_NODEFER, 2, 0);
	resethand();
	sa_mask_applies();
	uc_sigmask();
	ignored();
	argument_checks();
}
