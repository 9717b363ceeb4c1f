/*
 * Exceptions that concern user memory and user mode: page faults (demand
 * paging first, for user code and for the kernel's uaccess alike) and user
 * exceptions, which raise the signal Linux raises, with its si_code and
 * si_addr (arch/x86/kernel/traps.c, mm/fault.c):
 *   #DE SIGFPE FPE_INTDIV at RIP   #UD SIGILL ILL_ILLOPN at RIP
 *   #DB SIGTRAP TRAP_TRACE (single step), TRAP_HWBKPT, TRAP_BRKPT (INT1), at RIP
 *   #BP SIGTRAP SI_KERNEL          #GP #OF #BR #TS #NM SIGSEGV SI_KERNEL
 *   #NP #SS SIGBUS SI_KERNEL       #AC SIGBUS BUS_ADRALN
 *   #MF #XM SIGFPE with the code the x87 status or MXCSR gives, at RIP
 *   #PF SIGSEGV SEGV_MAPERR (no mapping) or SEGV_ACCERR (not allowed), at CR2
 * The signal is delivered on the way back to user mode (signal.c); the
 * console says what happened when no handler will run, as Linux's
 * show_unhandled_signals lines do.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_fault.h"
#include "arch/x86_64/debugreg.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/trap_pf.h"
#include "arch/x86_64/traps.h"
#include "lib/kprintf.h"
#include "proc/process.h"
#include "proc/signal.h"
#include "sys/uaccess_range.h"
#include "vsyscall/vsyscall.h"

#define SEGV_CPERR 10

enum addr_kind { ADDR_NONE, ADDR_RIP };

static const struct user_trap {
	uint8_t sig;
	int16_t code;   /* SI_KERNEL: Linux's force_sig (si_addr 0) */
	uint8_t addr;   /* enum addr_kind */
} user_traps[NR_EXCEPTIONS] = {
	[0] = {SIGFPE, FPE_INTDIV, ADDR_RIP},   [1] = {SIGTRAP, TRAP_BRKPT, ADDR_RIP},
	[3] = {SIGTRAP, SI_KERNEL, ADDR_NONE},  [4] = {SIGSEGV, SI_KERNEL, ADDR_NONE},
	[5] = {SIGSEGV, SI_KERNEL, ADDR_NONE},  [6] = {SIGILL, ILL_ILLOPN, ADDR_RIP},
	[7] = {SIGSEGV, SI_KERNEL, ADDR_NONE},  [9] = {SIGFPE, SI_KERNEL, ADDR_NONE},
	[10] = {SIGSEGV, SI_KERNEL, ADDR_NONE}, [11] = {SIGBUS, SI_KERNEL, ADDR_NONE},
	[12] = {SIGBUS, SI_KERNEL, ADDR_NONE},  [13] = {SIGSEGV, SI_KERNEL, ADDR_NONE},
	[16] = {SIGFPE, 0, ADDR_RIP},           [17] = {SIGBUS, BUS_ADRALN, ADDR_NONE},
	[19] = {SIGFPE, 0, ADDR_RIP},           [21] = {SIGSEGV, SEGV_CPERR, ADDR_NONE},
};

/* Linux fpu__exception_code: the one unmasked exception the status shows; 0: spurious. */
static int fpu_exception_code(unsigned vector)
{
	uint16_t cwd, swd;
	uint32_t mxcsr, err;

	if (vector == 16) {
		__asm__ __volatile__("fnstcw %0\n\tfnstsw %1" : "=m"(cwd), "=m"(swd));
		err = swd & ~cwd;
	} else {
		__asm__ __volatile__("stmxcsr %0" : "=m"(mxcsr));
		/* MXCSR: the masks (bits 7-12) over the flags (bits 0-5). */
		err = ~(mxcsr >> 7) & mxcsr;
	}
	if (err & 0x001)
		return FPE_FLTINV;
	if (err & 0x004)
		return FPE_FLTDIV;
	if (err & 0x008)
		return FPE_FLTOVF;
	if (err & 0x012)
		return FPE_FLTUND;
	if (err & 0x020)
		return FPE_FLTRES;
	return 0;
}

/* Linux get_si_code for #DB; 0: nothing to report (a condition the kernel consumed). */
static int debug_code(uint64_t raw_dr6)
{
	uint64_t dr6 = raw_dr6 ^ DR6_RESERVED;

	if (dr6 & DR_STEP)
		return TRAP_TRACE;
	if (dr6 & DR_TRAP_BITS)
		return TRAP_HWBKPT;
	/* No reason given: an INT1 (ICEBP), which user mode wants as a SIGTRAP. */
	return dr6 ? 0 : TRAP_BRKPT;
}

/* A user exception the kernel does not resolve: its signal.  false: not a user trap. */
bool user_trap_kill(const struct trap_frame *tf)
{
	unsigned v = (unsigned)tf->vector;
	const struct user_trap *ut;
	int code;

	if (v >= NR_EXCEPTIONS || !user_traps[v].sig || !current)
		return false;
	ut = &user_traps[v];
	code = ut->code;
	if (v == 16 || v == 19)
		code = fpu_exception_code(v);
	else if (v == 1)
		code = debug_code(tf->error);
	if (!code)
		return true; /* spurious: the instruction runs again */
	if (signal_unhandled(current, ut->sig))
		kprintf("%s[%d]: trap %s (%s) rip %lx rsp %lx error %lx\n", current->comm,
			current->pid, trap_mnemonic(v), trap_name(v), tf->rip, tf->rsp, tf->error);
	signal_force(tf, ut->sig, code, ut->addr == ADDR_RIP ? tf->rip : 0);
	return true;
}

static void user_segv(const struct trap_frame *tf, uint64_t addr, enum fault_result r)
{
	struct task *t = current;
	uint64_t err = tf->error | X86_PF_USER;

	if (signal_unhandled(t, SIGSEGV))
		kprintf("%s[%d]: segfault at %lx rip %lx error %lx rsp %lx\n", t->comm, t->pid,
			addr, tf->rip, tf->error, tf->rsp);
	signal_force(tf, SIGSEGV, r == FAULT_BAD_ACCESS ? SEGV_ACCERR : SEGV_MAPERR, addr);
	/* Linux set_signal_archinfo: the kernel half reads as a protection fault. */
	if (addr >= TASK_SIZE_MAX)
		err |= X86_PF_PROT;
	t->sig.trap.err = err;
	t->sig.trap.cr2 = addr;
}

/*
 * A #PF demand paging did not resolve: vsyscall emulation, the user's
 * SIGSEGV (or the end of the process when out of memory), a kernel fixup,
 * else fatal.  Out of line: page_fault()'s resolved fault is the hot path.
 */
static __attribute__((noinline, cold)) void page_fault_unresolved(struct trap_frame *tf,
								  uint64_t addr,
								  enum fault_result r)
{
	/* Calls into the legacy vsyscall page (emulate, xonly) are emulated here. */
	if (addr >= VSYSCALL_ADDR && vsyscall_fault(tf, addr) == VSYSCALL_EMULATED)
		return;
	if (trap_from_user(tf) && current) {
		if (r == FAULT_OOM) {
			kprintf("%s[%d]: out of memory at %lx rip %lx\n", current->comm,
				current->pid, addr, tf->rip);
			process_kill(SIGKILL);
		}
		user_segv(tf, addr, r);
		return;
	}
	if (extable_fixup(tf))
		return;
	trap_report_fatal(tf);
}

/* CR2 as it is (read_cr2() goes through the exception table, which a #PF never needs). */
static inline uint64_t cr2_now(void)
{
	uint64_t v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

/*
 * #PF from user mode, straight from its entry (page_fault_entry, entry.S):
 * CR2, the counter, demand paging below TASK_SIZE_MAX, then
 * page_fault_unresolved().  User mode always runs with current and its mm.
 */
void page_fault(struct trap_frame *tf)
{
	uint64_t addr = cr2_now();
	enum fault_result r = FAULT_BAD_ADDRESS;

	cpu0.nr_page_faults++;
	if (__builtin_expect(addr < TASK_SIZE_MAX, 1)) {
		r = mm_fault(current->mm, addr, tf->error);
		if (__builtin_expect(r == FAULT_HANDLED, 1))
			return;
	}
	page_fault_unresolved(tf, addr, r);
}

/*
 * #PF from kernel mode (trap_dispatch()): the same, where there may be no
 * task or address space yet (boot) — demand paging for the kernel's
 * uaccess, else the fixup or the report.
 */
void page_fault_kernel(struct trap_frame *tf)
{
	uint64_t addr = cr2_now();
	enum fault_result r = FAULT_BAD_ADDRESS;

	cpu0.nr_page_faults++;
	if (current && current->mm && addr < TASK_SIZE_MAX) {
		r = mm_fault(current->mm, addr, tf->error);
		if (r == FAULT_HANDLED)
			return;
	}
	page_fault_unresolved(tf, addr, r);
}
