/* sigcheck: handler installation, the recording handlers and mask helpers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sigcheck.h"

struct sc_seen sc_seen;
volatile uintptr_t sc_site_at, sc_site_resume;

void sc_install(int sig, sc_handler_fn *fn, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL)) {
		perror("sigcheck: sigaction");
		exit(1);
	}
}

void sc_default(int sig)
{
	signal(sig, SIG_DFL);
}

void sc_reset(void)
{
	memset(&sc_seen, 0, sizeof(sc_seen));
}

void sc_record(int sig, const siginfo_t *si, const ucontext_t *uc)
{
	volatile char here;

	sc_seen.count++;
	sc_seen.signo = sig;
	sc_seen.si = *si;
	memcpy(sc_seen.gregs, uc->uc_mcontext.gregs, sizeof(sc_seen.gregs));
	sc_seen.uc_flags = uc->uc_flags;
	memcpy(&sc_seen.uc_mask, &uc->uc_sigmask, sizeof(sc_seen.uc_mask));
	sc_seen.uc_stack = uc->uc_stack;
	sc_seen.mask_inside = sc_mask_now();
	sc_seen.local = (uintptr_t)&here;
}

void sc_record_handler(int sig, siginfo_t *si, void *ctx)
{
	sc_record(sig, si, ctx);
}

void sc_skip_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_record(sig, si, uc);
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)sc_site_resume;
}

uint64_t sc_mask_now(void)
{
	sigset_t set;
	uint64_t m;

	sigprocmask(SIG_BLOCK, NULL, &set);
	memcpy(&m, &set, sizeof(m));
	return m;
}

static void change(int how, uint64_t bits)
{
	sigset_t set;

	sigemptyset(&set);
	for (int s = 1; s <= 64; s++)
		if (bits & SC_BIT(s))
			sigaddset(&set, s);
	sigprocmask(how, &set, NULL);
}

void sc_block(uint64_t bits)
{
	change(SIG_BLOCK, bits);
}

void sc_unblock(uint64_t bits)
{
	change(SIG_UNBLOCK, bits);
}

uint64_t sc_pending_now(void)
{
	sigset_t set;
	uint64_t m;

	sigemptyset(&set);
	sigpending(&set);
	memcpy(&m, &set, sizeof(m));
	return m;
}
