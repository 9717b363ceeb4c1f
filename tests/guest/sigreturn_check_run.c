/*
 * sigreturn_check: one edited sigreturn.  The SIGUSR1 handler keeps the
 * frame's registers, applies the edit and returns; a fault that follows is
 * recorded by the fault handler, which puts the kept registers back (RIP,
 * RSP, flags, CS/SS: the state right after sr_trigger's SYSCALL), so the
 * program goes on from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sigreturn_check.h"

uint64_t sr_out[SR_NOUT];
int sr_tid;
struct sr_fault sr_fault;
gregset_t sr_before;
unsigned long sr_uc_flags_before;

static sr_edit_fn *current_edit;

void sr_set_cs(greg_t *g, uint16_t cs)
{
	g[REG_CSGSFS] = (greg_t)(((uint64_t)g[REG_CSGSFS] & ~0xffffull) | cs);
}

void sr_set_ss(greg_t *g, uint16_t ss)
{
	g[REG_CSGSFS] = (greg_t)(((uint64_t)g[REG_CSGSFS] & ~(0xffffull << 48)) | (uint64_t)ss << 48);
}

static void edit_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	memcpy(sr_before, uc->uc_mcontext.gregs, sizeof(sr_before));
	sr_uc_flags_before = uc->uc_flags;
	if (current_edit)
		current_edit(uc);
}

static void fault_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sr_fault.count++;
	sr_fault.signo = sig;
	sr_fault.si = *si;
	memcpy(sr_fault.gregs, uc->uc_mcontext.gregs, sizeof(sr_fault.gregs));
	if (sr_fault.count > 20) {
		printf("FAIL: sigreturn_check: %d faults in a row (signal %d at %#llx), giving up\n",
		       sr_fault.count, sig, (unsigned long long)uc->uc_mcontext.gregs[REG_RIP]);
		fflush(stdout);
		_exit(1);
	}
	memcpy(uc->uc_mcontext.gregs, sr_before, sizeof(sr_before));
	uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)(X86_TF | X86_RF);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL)) {
		perror("sigreturn_check: sigaction");
		exit(1);
	}
}

int sr_run(sr_edit_fn *edit)
{
	static int ready;

	if (!ready) {
		install(SIGUSR1, edit_handler);
		install(SIGSEGV, fault_handler);
		install(SIGBUS, fault_handler);
		install(SIGTRAP, fault_handler);
		ready = 1;
	}
	sr_tid = (int)syscall(SYS_gettid); /* per run: a forked child has its own */
	memset(&sr_fault, 0, sizeof(sr_fault));
	memset(sr_out, 0, sizeof(sr_out));
	current_edit = edit;
	sr_trigger();
	current_edit = NULL;
	return sr_fault.count;
}
