/*
 * sigcheck mask: rt_sigprocmask, rt_sigpending and rt_sigsuspend.  A blocked
 * signal stays pending (once: standard signals do not queue) and is
 * delivered before the unblocking sigprocmask returns; SIGKILL and SIGSTOP
 * cannot be blocked; sigsuspend runs the handler, answers EINTR and puts
 * the old mask back, while the frame's uc_sigmask shows the old mask.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/sys.h"
#include "sigcheck.h"

static void pending_then_unblock(void)
{
	uint64_t pend;
	int during;

	sc_install(SIGUSR1, sc_record_handler, 0);
	sc_reset();
	sc_block(SC_BIT(SIGUSR1));
	raise(SIGUSR1);
	raise(SIGUSR1);
	during = sc_seen.count;
	pend = sc_pending_now();
	el_expect("mask.blocked_not_delivered", during == 0, "handler ran %d times while blocked",
		  during);
	el_expect("mask.sigpending_shows_it", pend == SC_BIT(SIGUSR1), "pending %#llx",
		  (unsigned long long)pend);
	sc_unblock(SC_BIT(SIGUSR1));
	el_expect("mask.delivered_on_unblock_once", sc_seen.count == 1,
		  "handler ran %d times after unblocking (standard signals do not queue)",
		  sc_seen.count);
	el_expect("mask.nothing_pending_after", sc_pending_now() == 0, "pending %#llx",
		  (unsigned long long)sc_pending_now());
	el_expect("mask.uc_sigmask_after_unblock", !(sc_seen.uc_mask & SC_BIT(SIGUSR1)),
		  "uc_sigmask %#llx", (unsigned long long)sc_seen.uc_mask);
	sc_default(SIGUSR1);
}

static void unblockable(void)
{
	uint64_t all = ~0ull, got = 0, old = 0;
	long r;

	r = el_syscall4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8);
	el_syscall4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, (long)&got, 8);
	el_expect("mask.sigkill_sigstop_never_blocked",
		  r == 0 && got == (~0ull & ~(SC_BIT(SIGKILL) | SC_BIT(SIGSTOP))),
		  "blocking everything gave %#llx", (unsigned long long)got);
	r = el_syscall4(SYS_rt_sigprocmask, 7, (long)&all, 0, 8);
	el_expect("mask.bad_how_einval", r == -EINVAL, "how=7: %ld", r);
	r = el_syscall4(SYS_rt_sigprocmask, SIG_BLOCK, (long)&all, 0, 4);
	el_expect("mask.bad_size_einval", r == -EINVAL, "size 4: %ld", r);
	r = el_syscall2(SYS_rt_sigpending, (long)&got, 8);
	el_expect("mask.rt_sigpending_raw", r == 0 && got == 0, "rt_sigpending: %ld, %#llx", r,
		  (unsigned long long)got);
}

static void suspend_pending(void)
{
	sigset_t empty;
	int r, e;

	sc_install(SIGUSR1, sc_record_handler, 0);
	sc_reset();
	sc_block(SC_BIT(SIGUSR1) | SC_BIT(SIGPROF));
	raise(SIGUSR1);
	sigemptyset(&empty);
	sigaddset(&empty, SIGUSR2);
	r = sigsuspend(&empty);
	e = errno;
	el_expect("sigsuspend.eintr_after_handler", r == -1 && e == EINTR && sc_seen.count == 1,
		  "sigsuspend %d errno %s, handler ran %d times", r, strerror(e), sc_seen.count);
	el_expect("sigsuspend.temporary_mask_inside",
		  (sc_seen.mask_inside & (SC_BIT(SIGUSR2) | SC_BIT(SIGUSR1))) ==
				  (SC_BIT(SIGUSR2) | SC_BIT(SIGUSR1)) &&
			  !(sc_seen.mask_inside & SC_BIT(SIGPROF)),
		  "mask inside the handler %#llx: want the sigsuspend mask plus SIGUSR1",
		  (unsigned long long)sc_seen.mask_inside);
	el_expect("sigsuspend.uc_sigmask_is_old_mask",
		  (sc_seen.uc_mask & (SC_BIT(SIGUSR1) | SC_BIT(SIGPROF))) ==
				  (SC_BIT(SIGUSR1) | SC_BIT(SIGPROF)) &&
			  !(sc_seen.uc_mask & SC_BIT(SIGUSR2)),
		  "uc_sigmask %#llx: want the mask from before sigsuspend",
		  (unsigned long long)sc_seen.uc_mask);
	el_expect("sigsuspend.old_mask_back",
		  (sc_mask_now() & (SC_BIT(SIGUSR1) | SC_BIT(SIGPROF) | SC_BIT(SIGUSR2))) ==
			  (SC_BIT(SIGUSR1) | SC_BIT(SIGPROF)),
		  "mask after %#llx", (unsigned long long)sc_mask_now());
	sc_unblock(SC_BIT(SIGUSR1) | SC_BIT(SIGPROF));
	sc_default(SIGUSR1);
}

void sc_mask(void)
{
	pending_then_unblock();
	unblockable();
	suspend_pending();
}
