/*
 * archcheck: x86-64 specifics as Linux has them (see archcheck.h).
 *   archcheck              every group (vdso last: after it musl's cached vDSO
 *                          pointer is stale, so nothing may call libc's clocks)
 *   archcheck GROUP...     only these
 *   archcheck --list       the groups
 * Exit 0 only when no check failed.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "archcheck.h"

volatile uintptr_t ac_site_at, ac_site_resume;
volatile int ac_faults, ac_fault_code;

static void skip_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	ac_faults++;
	ac_fault_code = si->si_code;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)ac_site_resume;
}

void ac_catch_segv(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = skip_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	ac_faults = 0;
	ac_fault_code = 0;
}

void ac_default_segv(void)
{
	signal(SIGSEGV, SIG_DFL);
}

int ac_pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static const struct el_group groups[] = {
	{"ldt", "modify_ldt; LDT data in %gs and code in %cs across syscalls, faults, signals",
	 ac_ldt},
	{"prctl", "arch_prctl FS/GS, FSGSBASE instructions", ac_prctl},
	{"io", "ioperm and iopl (TSS I/O bitmap); port 0x3fd, the COM1 line status", ac_io},
	{"mremap", "mremap grow, shrink, move, in place, errors", ac_mremap},
	{"proc", "process_vm_readv on ourselves; /proc/self/maps and smaps", ac_proc},
	{"xsave", "OSXSAVE/XCR0 as CPUID offers; AVX state across a switch", ac_xsave},
	{"vdso", "mremap of the vDSO: the kernel follows, the moved code runs", ac_vdso_move},
};

int main(int argc, char **argv)
{
	return EL_RUN_GROUPS("archcheck", groups, _IONBF, argc, argv);
}
