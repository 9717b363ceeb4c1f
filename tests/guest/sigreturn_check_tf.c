/*
 * sigreturn_check tf: the trap flag.
 *   - sigreturn with TF set in the frame: one SIGTRAP (TRAP_TRACE, trapno 1)
 *     after exactly one instruction, with RIP = sr_second; with RF set too the
 *     same (RF suppresses instruction breakpoints, not single-step); RF alone
 *     returns normally.  SYSRET cannot restore RF (it clears it), so the
 *     kernel leaves through IRET; either way TF must not be lost.
 *   - TF set by the program itself across a SYSCALL and across a page fault
 *     the kernel resolves: the SIGTRAP handler logs every RIP; the sequence
 *     must be Linux's: one trap after each instruction except the SYSCALL
 *     (which clears TF as it enters), the faulting load trapping once, after
 *     it completes; nothing from inside the kernel.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "sigreturn_check.h"

static void edit_flags_or(ucontext_t *uc, uint64_t bits)
{
	uc->uc_mcontext.gregs[REG_EFL] |= (greg_t)bits;
}

static void edit_tf(ucontext_t *uc)
{
	edit_flags_or(uc, X86_TF);
}

static void edit_tf_rf(ucontext_t *uc)
{
	edit_flags_or(uc, X86_TF | X86_RF);
}

static void edit_rf(ucontext_t *uc)
{
	edit_flags_or(uc, X86_RF);
}

static void expect_one_step(const char *name)
{
	el_expect(name,
		  sr_fault.count == 1 && sr_fault.signo == SIGTRAP &&
			  sr_fault.si.si_code == TRAP_TRACE &&
			  (uintptr_t)sr_fault.gregs[REG_RIP] == (uintptr_t)sr_second &&
			  sr_fault.gregs[REG_TRAPNO] == 1 && (sr_fault.gregs[REG_EFL] & X86_TF),
		  "%d faults, signal %d si_code %d trapno %lld RIP %#llx (want sr_second %p) "
		  "RFLAGS %#llx",
		  sr_fault.count, sr_fault.signo, sr_fault.si.si_code,
		  (long long)sr_fault.gregs[REG_TRAPNO], (unsigned long long)sr_fault.gregs[REG_RIP],
		  (const void *)sr_second, (unsigned long long)sr_fault.gregs[REG_EFL]);
}

static void via_sigreturn(void)
{
	sr_run(edit_tf);
	expect_one_step("tf.sigreturn_tf_traps_after_one_instruction");
	sr_run(edit_tf_rf);
	expect_one_step("tf.sigreturn_tf_rf_traps_after_one_instruction");
	sr_run(edit_rf);
	el_expect("tf.sigreturn_rf_alone_returns", sr_fault.count == 0 && !(sr_out[SR_FLAGS] & X86_TF),
		  "%d faults (signal %d at %#llx), RFLAGS after %#llx", sr_fault.count, sr_fault.signo,
		  (unsigned long long)sr_fault.gregs[REG_RIP], (unsigned long long)sr_out[SR_FLAGS]);
	sr_run(NULL);
	el_expect("tf.not_left_set", sr_fault.count == 0 && !(sr_out[SR_FLAGS] & X86_TF),
		  "a plain sigreturn after the TF runs: %d faults, RFLAGS %#llx", sr_fault.count,
		  (unsigned long long)sr_out[SR_FLAGS]);
}

/* Self-set TF: a log of trap RIPs. */
static uintptr_t trap_rip[32];
static int traps, trap_codes_ok;

static void log_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	trap_codes_ok &= si->si_code == TRAP_TRACE;
	if (traps < 32)
		trap_rip[traps] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	traps++;
	if (traps >= 32) /* runaway: stop stepping */
		uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)X86_TF;
}

void sr_tf_syscall(void);
void sr_tf_fault(void *fresh);
extern const char sr_tfs_0[], sr_tfs_1[], sr_tfs_2[], sr_tfs_3[], sr_tfs_4[], sr_tfs_5[],
	sr_tfs_6[], sr_tfs_7[], sr_tfs_8[];
extern const char sr_tff_0[], sr_tff_1[], sr_tff_2[], sr_tff_3[], sr_tff_4[], sr_tff_5[],
	sr_tff_6[];

static void expect_log(const char *name, const char *const *want, int n,
		       const char *const *labels, const char *const *label_names, int nlabels)
{
	char got[400] = "";
	size_t len = 0;
	int ok = traps == n && trap_codes_ok;

	for (int i = 0; i < n && ok; i++)
		ok = trap_rip[i] == (uintptr_t)want[i];
	for (int i = 0; i < traps && i < 32 && len < sizeof(got) - 24; i++) {
		const char *nm = NULL;

		for (int l = 0; l < nlabels; l++)
			if (trap_rip[i] == (uintptr_t)labels[l])
				nm = label_names[l];
		if (nm)
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %s", nm);
		else
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %#lx",
						(unsigned long)trap_rip[i]);
	}
	el_expect(name, ok, "%d traps (want %d, all TRAP_TRACE: %s); RIPs:%s", traps, n,
		  trap_codes_ok ? "yes" : "no", got);
}

static void self_set(void)
{
	static const char *const tfs_names[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8"};
	const char *const tfs[] = {sr_tfs_0, sr_tfs_1, sr_tfs_2, sr_tfs_3, sr_tfs_4,
				   sr_tfs_5, sr_tfs_6, sr_tfs_7, sr_tfs_8};
	const char *const tff[] = {sr_tff_0, sr_tff_1, sr_tff_2, sr_tff_3,
				   sr_tff_4, sr_tff_5, sr_tff_6};
	/*
	 * Linux: a trap after each instruction following the POPF, the POPF that
	 * clears TF included, except the SYSCALL: it clears TF (SFMASK) as it
	 * enters the kernel, so no trap is due at its end; the return puts TF back
	 * and the next trap comes after the instruction that follows (RIP 4, not 3).
	 */
	const char *const want_syscall[] = {sr_tfs_1, sr_tfs_2, sr_tfs_4, sr_tfs_5,
					    sr_tfs_6, sr_tfs_7, sr_tfs_8};
	const char *const want_fault[] = {sr_tff_1, sr_tff_2, sr_tff_3, sr_tff_4, sr_tff_5, sr_tff_6};
	struct sigaction sa, old;
	void *fresh = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = log_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, &old);
	traps = 0;
	trap_codes_ok = 1;
	sr_tf_syscall();
	expect_log("tf.self_set_across_syscall", want_syscall, 7, tfs, tfs_names, 9);
	traps = 0;
	trap_codes_ok = 1;
	sr_tf_fault(fresh);
	expect_log("tf.self_set_across_page_fault", want_fault, 6, tff, tfs_names, 7);
	sigaction(SIGTRAP, &old, NULL);
	munmap(fresh, 4096);
}

void sr_tf(void)
{
	via_sigreturn();
	self_set();
}
