/*
 * Exceptions that concern user memory and user mode: page faults (demand
 * paging first, for user code and for the kernel's uaccess alike) and user
 * exceptions, which end the process as the matching signal would on Linux
 * (no handlers run yet): SIGSEGV for #PF/#GP, SIGILL for #UD, SIGFPE for
 * #DE/#MF/#XM, SIGTRAP for #DB/#BP, SIGBUS for #NP/#SS/#AC.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "lib/kprintf.h"
#include "proc/process.h"
#include "sys/uaccess_range.h"
#include "vsyscall/vsyscall.h"

#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGSEGV 11

static const uint8_t user_signal[NR_EXCEPTIONS] = {
	[0] = SIGFPE,   [1] = SIGTRAP,  [3] = SIGTRAP,  [4] = SIGSEGV,  [5] = SIGSEGV,
	[6] = SIGILL,   [7] = SIGSEGV,  [10] = SIGSEGV, [11] = SIGBUS,  [12] = SIGBUS,
	[13] = SIGSEGV, [16] = SIGFPE,  [17] = SIGBUS,  [19] = SIGFPE,  [21] = SIGSEGV,
};

/* A user exception the kernel does not resolve: Linux's "traps:" line, then the signal. */
bool user_trap_kill(const struct trap_frame *tf)
{
	unsigned v = (unsigned)tf->vector;

	if (v >= NR_EXCEPTIONS || !user_signal[v] || !current)
		return false;
	kprintf("%s[%d]: trap %s (%s) rip %lx rsp %lx error %lx\n", current->comm, current->pid,
		trap_mnemonic(v), trap_name(v), tf->rip, tf->rsp, tf->error);
	process_kill(user_signal[v]);
}

void page_fault(struct trap_frame *tf)
{
	uint64_t addr = read_cr2();
	enum fault_result r = FAULT_BAD_ADDRESS;

	cpu0.nr_page_faults++;
	if (current && addr < TASK_SIZE_MAX) {
		r = mm_fault(current->mm, addr, tf->error);
		if (r == FAULT_HANDLED)
			return;
	}
	/* Calls into the legacy vsyscall page (emulate, xonly) are emulated here. */
	if (addr >= VSYSCALL_ADDR && vsyscall_fault(tf, addr) == VSYSCALL_EMULATED)
		return;
	if (trap_from_user(tf) && current) {
		if (r == FAULT_OOM) {
			kprintf("%s[%d]: out of memory at %lx rip %lx\n", current->comm,
				current->pid, addr, tf->rip);
			process_kill(SIGKILL);
		}
		kprintf("%s[%d]: segfault at %lx rip %lx error %lx rsp %lx\n", current->comm,
			current->pid, addr, tf->rip, tf->error, tf->rsp);
		process_kill(SIGSEGV);
	}
	if (extable_fixup(tf))
		return;
	trap_report_fatal(tf);
}
