/*
 * hwbpcheck: hardware breakpoints through ptrace, as Linux x86-64 has them
 * (arch/x86/kernel/ptrace.c, hw_breakpoint.c, traps.c exc_debug_*):
 *   regs    DR0-DR7 through POKEUSER/PEEKUSER at offsetof(struct user,
 *           u_debugreg): the checks and errnos (user addresses only, length
 *           alignment, no I/O breakpoints, no DR4/DR5), DR6 and DR7 read back;
 *   watch   a write watchpoint: the SIGTRAP stop after the write, si_code
 *           TRAP_HWBKPT, si_addr and RIP the next instruction, DR6 B0;
 *   exec    an execute breakpoint: the stop at the instruction, which then
 *           runs once (RF) instead of trapping again;
 *   kernel  the kernel writing the watched word (read() from a pipe): no
 *           SIGTRAP and DR6 untouched (ptrace breakpoints count user-mode
 *           hits only); a user write afterwards still traps;
 *   fork    a child of the tracee does not inherit its breakpoints;
 *   execve  exec drops them: DR0, DR7 and DR6 read as at rest;
 *   movss   a watchpoint on the selector MOV SS loads, then SYSCALL, INT3,
 *           INT $0x80, INT $0x41: the #DB lands on the kernel entry's first
 *           instruction (CVE-2018-8897) and the user sees only what the
 *           instruction alone gives; the kernel lives on.
 *   hwbpcheck [GROUP...]   (every group by default).  Exit 0: no FAIL.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "trace_child.h"
#include "lib/sys.h"

_Static_assert(offsetof(struct user, u_debugreg) == 848, "u_debugreg at 848");
#define DR_OFF(n) ((void *)(offsetof(struct user, u_debugreg) + 8 * (n)))
#define RIP_OFF ((void *)offsetof(struct user_regs_struct, rip))
#define DR6_IDLE 0xffff0ff0ul /* DR6 with no condition (what Linux shows at rest) */
#define DR7_W8 0x90001ul      /* L0, write, 8 bytes */
#define DR7_X 0x1ul           /* L0, execute */
#define DR7_RW2 0x70001ul     /* L0, read/write, 2 bytes */
#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

extern volatile uint64_t hw_word;
extern volatile uint16_t hw_ss_sel;
void hw_write_word(uint64_t v);
void hw_exec_target(void);
long hw_movss_syscall(void);
void hw_movss_int3(void);
long hw_movss_int80(void);
void hw_movss_intn(void);
long hw_int80(void);
extern const char hw_write_after[], hw_movss_syscall_at[], hw_movss_int3_at[],
	hw_movss_int80_at[], hw_movss_intn_at[], hw_int80_at[], hw_movss_resume[];

static long poke_dr(pid_t pid, int n, unsigned long v)
{
	return ptrace(PTRACE_POKEUSER, pid, DR_OFF(n), (void *)v) ? -errno : 0;
}

static unsigned long peek(pid_t pid, void *off)
{
	return (unsigned long)ptrace(PTRACE_PEEKUSER, pid, off, NULL);
}

static int cont(pid_t pid, int sig)
{
	if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig))
		return -1;
	return pt_wait(pid);
}

/* A child left behind after a SKIP or FAIL: killed and reaped unless it already ended. */
static void abandon_stopped(pid_t pid, int st)
{
	if (WIFSTOPPED(st))
		pt_abandon(pid);
}

/* PTRACE_CONT, and past the SIGCHLD stops (a child of the tracee ended): the next other stop. */
static int cont_past_sigchld(pid_t pid)
{
	int st = cont(pid, 0);

	while (WIFSTOPPED(st) && WSTOPSIG(st) == SIGCHLD)
		st = cont(pid, 0);
	return st;
}

/* Whether armed breakpoints raise #DB on this CPU: -1 not known yet, 0 no, 1 yes. */
static int dr_fire = -1;

/*
 * The stop is a SIGTRAP whose siginfo says TRAP_HWBKPT at `addr`, RIP `rip`,
 * DR6 `dr6`: 1, else 0 after a FAIL.  -1 after a SKIP: the child went past
 * the breakpoint (ended, or stopped for another signal) and none has fired
 * in this run, so this CPU raises no #DB for them (a hypervisor that
 * ignores the guest's DR7).
 */
static int expect_hw_stop(const char *name, pid_t pid, int st, const void *addr,
			  const void *rip, unsigned long dr6)
{
	siginfo_t si;

	if (dr_fire != 1 && (WIFEXITED(st) || (WIFSTOPPED(st) && WSTOPSIG(st) != SIGTRAP))) {
		dr_fire = 0;
		el_skip(name, "the child went past it (wait status %#x): this CPU raised no #DB "
			"for the armed breakpoint", st);
		return -1;
	}
	if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
		el_fail(name, "wait status %#x, not a SIGTRAP stop", st);
		return 0;
	}
	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si)) {
		el_fail(name, "GETSIGINFO: %s", strerror(errno));
		return 0;
	}
	if (si.si_code == TRAP_HWBKPT)
		dr_fire = 1;
	return el_expect(name,
			 si.si_code == TRAP_HWBKPT && si.si_addr == addr &&
				 peek(pid, RIP_OFF) == (unsigned long)rip &&
				 peek(pid, DR_OFF(6)) == dr6,
			 "si_code %d si_addr %p rip %#lx DR6 %#lx; want %d %p %p %#lx", si.si_code,
			 si.si_addr, peek(pid, RIP_OFF), peek(pid, DR_OFF(6)), TRAP_HWBKPT, addr, rip,
			 dr6);
}

static void expect_exit0(const char *name, pid_t pid, int st)
{
	if (!el_expect(name, WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "wait status %#x, want exit 0", st) &&
	    !WIFEXITED(st) && !WIFSIGNALED(st))
		pt_abandon(pid);
}

static int child_idle(void)
{
	return 0;
}

static void group_regs(void)
{
	pid_t pid = pt_child("regs: child", child_idle);
	uint64_t user = (uint64_t)(uintptr_t)&hw_word;
	int st;

	if (pid < 0)
		return;
	el_expect("regs: DR0-DR3, DR6, DR7 at rest", peek(pid, DR_OFF(0)) == 0 &&
		  peek(pid, DR_OFF(3)) == 0 && peek(pid, DR_OFF(6)) == DR6_IDLE &&
		  peek(pid, DR_OFF(7)) == 0, "DR0 %#lx DR3 %#lx DR6 %#lx DR7 %#lx",
		  peek(pid, DR_OFF(0)), peek(pid, DR_OFF(3)), peek(pid, DR_OFF(6)),
		  peek(pid, DR_OFF(7)));
	el_expect("regs: DR0 of a kernel address is EINVAL",
		  poke_dr(pid, 0, 0xffff888000000000ul) == -EINVAL, "got %ld",
		  poke_dr(pid, 0, 0xffff888000000000ul));
	el_expect("regs: DR1 at TASK_SIZE_MAX is EINVAL", poke_dr(pid, 1, 0x7ffffffff000ul) == -EINVAL,
		  "got %ld", poke_dr(pid, 1, 0x7ffffffff000ul));
	el_expect("regs: DR1 just below TASK_SIZE_MAX", poke_dr(pid, 1, 0x7fffffffefffl) == 0 &&
		  peek(pid, DR_OFF(1)) == 0x7fffffffeffful, "DR1 %#lx", peek(pid, DR_OFF(1)));
	el_expect("regs: DR4 and DR5 refuse with EIO, read 0",
		  poke_dr(pid, 4, 0) == -EIO && poke_dr(pid, 5, 0) == -EIO &&
		  peek(pid, DR_OFF(4)) == 0 && peek(pid, DR_OFF(5)) == 0,
		  "poke DR4 %ld", poke_dr(pid, 4, 0));
	el_expect("regs: DR6 reads back what was written", poke_dr(pid, 6, 0xffff0ff3ul) == 0 &&
		  peek(pid, DR_OFF(6)) == 0xffff0ff3ul, "DR6 %#lx", peek(pid, DR_OFF(6)));
	poke_dr(pid, 6, DR6_IDLE);
	/* An odd address, then a 4-byte watchpoint on it: the alignment check. */
	poke_dr(pid, 0, user + 1);
	el_expect("regs: misaligned 4-byte watchpoint is EINVAL, DR7 kept",
		  poke_dr(pid, 7, 0xd0001ul) == -EINVAL && peek(pid, DR_OFF(7)) == 0,
		  "DR7 %#lx", peek(pid, DR_OFF(7)));
	el_expect("regs: I/O breakpoint (RW=10) is EINVAL", poke_dr(pid, 7, 0x20001ul) == -EINVAL,
		  "got %ld", poke_dr(pid, 7, 0x20001ul));
	el_expect("regs: execute breakpoint with a length is EINVAL",
		  poke_dr(pid, 7, 0x40001ul) == -EINVAL, "got %ld", poke_dr(pid, 7, 0x40001ul));
	poke_dr(pid, 0, user);
	el_expect("regs: 8-byte watchpoint armed, DR0 and DR7 read back",
		  poke_dr(pid, 7, DR7_W8) == 0 && peek(pid, DR_OFF(7)) == DR7_W8 &&
		  peek(pid, DR_OFF(0)) == user, "DR7 %#lx DR0 %#lx", peek(pid, DR_OFF(7)),
		  peek(pid, DR_OFF(0)));
	el_expect("regs: an armed slot keeps its alignment check",
		  poke_dr(pid, 0, user + 4) == -EINVAL && peek(pid, DR_OFF(0)) == user,
		  "DR0 %#lx", peek(pid, DR_OFF(0)));
	el_expect("regs: reserved DR7 bits are ignored and read back",
		  poke_dr(pid, 7, DR7_W8 | 0x400ul) == 0 && peek(pid, DR_OFF(7)) == (DR7_W8 | 0x400ul),
		  "DR7 %#lx", peek(pid, DR_OFF(7)));
	poke_dr(pid, 7, 0);
	st = cont(pid, 0);
	expect_exit0("regs: child ends", pid, st);
}

static int child_watch(void)
{
	hw_write_word(0x1234);
	return hw_word == 0x1234 ? 0 : 1;
}

static void group_watch(void)
{
	pid_t pid = pt_child("watch: child", child_watch);
	int st;

	if (pid < 0)
		return;
	if (poke_dr(pid, 0, (unsigned long)&hw_word) || poke_dr(pid, 7, DR7_W8)) {
		el_fail("watch: arm", "POKEUSER: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	st = cont(pid, 0);
	if (expect_hw_stop("watch: SIGTRAP after the write, DR6 B0", pid, st, hw_write_after,
		       hw_write_after, DR6_IDLE | 1) < 0) {
		abandon_stopped(pid, st);
		return;
	}
	st = cont(pid, 0);
	expect_exit0("watch: child ends, the word written", pid, st);
}

static int child_exec(void)
{
	hw_exec_target();
	return 0;
}

static void group_exec(void)
{
	pid_t pid = pt_child("exec: child", child_exec);
	int st;

	if (pid < 0)
		return;
	if (poke_dr(pid, 2, (unsigned long)hw_exec_target) || poke_dr(pid, 7, DR7_X << 4)) {
		el_fail("exec: arm", "POKEUSER: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	st = cont(pid, 0);
	if (expect_hw_stop("exec: SIGTRAP at the instruction, DR6 B2", pid, st, hw_exec_target,
		       hw_exec_target, DR6_IDLE | 4) < 0) {
		abandon_stopped(pid, st);
		return;
	}
	st = cont(pid, 0);
	expect_exit0("exec: resumes past it once (RF), child ends", pid, st);
}

static int child_kernel(void)
{
	int p[2];
	uint64_t v = 0x0123456789abcdefull;

	hw_write_word(7); /* armed? this user write stops */
	if (pipe(p) || write(p[1], &v, 8) != 8)
		return 2;
	/* The kernel's copy to user mode writes the watched word. */
	if (read(p[0], (void *)&hw_word, 8) != 8 || hw_word != v)
		return 3;
	el_syscall2(SYS_kill, el_syscall1(SYS_getpid, 0), SIGUSR1);
	return 0;
}

static void group_kernel(void)
{
	pid_t pid = pt_child("kernel: child", child_kernel);
	int st;

	if (pid < 0)
		return;
	if (poke_dr(pid, 0, (unsigned long)&hw_word) || poke_dr(pid, 7, DR7_W8)) {
		el_fail("kernel: arm", "POKEUSER: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	st = cont(pid, 0);
	if (expect_hw_stop("kernel: armed (a user write stops)", pid, st, hw_write_after,
			   hw_write_after, DR6_IDLE | 1) <= 0) {
		if (!WIFEXITED(st))
			pt_abandon(pid);
		return;
	}
	poke_dr(pid, 6, DR6_IDLE);
	st = cont(pid, 0);
	/* The next stop must be the SIGUSR1 after the read(), not a SIGTRAP for the kernel's write. */
	if (el_expect("kernel: no SIGTRAP for the kernel's write (read from a pipe)",
		      WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR1,
		      "wait status %#x (want the SIGUSR1 stop)", st))
		el_expect("kernel: DR6 untouched by it", peek(pid, DR_OFF(6)) == DR6_IDLE,
			  "DR6 %#lx", peek(pid, DR_OFF(6)));
	if (!WIFSTOPPED(st)) {
		if (!WIFEXITED(st) && !WIFSIGNALED(st))
			pt_abandon(pid);
		return;
	}
	st = cont(pid, 0);
	expect_exit0("kernel: child ends, read() delivered the data", pid, st);
}

static int child_fork(void)
{
	pid_t c = fork();

	if (c == 0) {
		hw_write_word(1);
		_exit(0);
	}
	if (c < 0 || pt_wait(c) != 0)
		return 5; /* a SIGTRAP would have killed it */
	hw_write_word(2);
	return 0;
}

static void group_fork(void)
{
	pid_t pid = pt_child("fork: child", child_fork);
	int st;

	if (pid < 0)
		return;
	if (poke_dr(pid, 0, (unsigned long)&hw_word) || poke_dr(pid, 7, DR7_W8)) {
		el_fail("fork: arm", "POKEUSER: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	st = cont_past_sigchld(pid);
	if (expect_hw_stop("fork: the grandchild ran free, the tracee traps", pid, st, hw_write_after,
		       hw_write_after, DR6_IDLE | 1) < 0) {
		abandon_stopped(pid, st);
		return;
	}
	st = cont(pid, 0);
	expect_exit0("fork: child ends", pid, st);
}

static int child_execve(void)
{
	execl("/proc/self/exe", "hwbpcheck", "--exit0", (char *)NULL);
	return 9;
}

static void group_execve(void)
{
	pid_t pid = pt_child("execve: child", child_execve);
	int st;

	if (pid < 0)
		return;
	if (poke_dr(pid, 0, (unsigned long)&hw_word) || poke_dr(pid, 7, DR7_W8) ||
	    poke_dr(pid, 6, DR6_IDLE | 1)) {
		el_fail("execve: arm", "POKEUSER: %s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	/* A tracee without PTRACE_O_TRACEEXEC stops with SIGTRAP after the exec. */
	st = cont(pid, 0);
	if (!el_expect("execve: breakpoints gone after exec (DR0, DR6, DR7)",
		       WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP && peek(pid, DR_OFF(0)) == 0 &&
			       peek(pid, DR_OFF(6)) == DR6_IDLE && peek(pid, DR_OFF(7)) == 0,
		       "wait status %#x, DR0 %#lx DR6 %#lx DR7 %#lx", st, peek(pid, DR_OFF(0)),
		       peek(pid, DR_OFF(6)), peek(pid, DR_OFF(7)))) {
		abandon_stopped(pid, st);
		return;
	}
	st = cont(pid, 0);
	expect_exit0("execve: child ends", pid, st);
}

/* What the MOV SS child saw, in memory shared with the parent. */
struct movss_log {
	int traps, segvs, trap_code, segv_code, first_code;
	uintptr_t trap_rip, segv_rip, first_rip; /* first_: the first SIGTRAP's */
	long result, pid, plain_int80, alive;
	int armed_code, done;
	uintptr_t armed_rip;
};
static struct movss_log *lg;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	if (!lg->traps++) {
		lg->first_code = si->si_code;
		lg->first_rip = (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
	}
	lg->trap_code = si->si_code;
	lg->trap_rip = (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	lg->segvs++;
	lg->segv_code = si->si_code;
	lg->segv_rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	/* Only the INTs that push RBX may resume there; anything else ends the child. */
	if (lg->segv_rip != (uintptr_t)hw_int80_at && lg->segv_rip != (uintptr_t)hw_movss_int80_at &&
	    lg->segv_rip != (uintptr_t)hw_movss_intn_at)
		_exit(99);
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)hw_movss_resume;
}

/* One sequence: the counters zeroed, run, alive checked (getpid). */
#define MOVSS_RUN(stmt)                                                     \
	do {                                                                \
		lg->traps = lg->segvs = 0;                                  \
		lg->trap_rip = lg->segv_rip = 0;                            \
		stmt;                                                       \
		lg->alive = el_syscall1(SYS_getpid, 0) == lg->pid;           \
	} while (0)

static struct movss_log logs[6]; /* the parent's copies, one per sequence */

static int child_movss(void)
{
	struct sigaction sa;
	volatile uint16_t ss, probe;

	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	__asm__ __volatile__("mov %%ss, %0" : "=r"(ss));
	lg->pid = el_syscall1(SYS_getpid, 0);
	/* Armed?  A plain user read of the watched selector traps in user mode. */
	hw_ss_sel = ss; /* a write: traps too (RW=11), before the probe below clears the count */
	MOVSS_RUN(probe = hw_ss_sel);
	(void)probe;
	lg[1] = lg[0];
	MOVSS_RUN(lg->result = hw_movss_syscall());
	lg[2] = lg[0];
	MOVSS_RUN(hw_movss_int3());
	lg[3] = lg[0];
	MOVSS_RUN(lg->plain_int80 = hw_int80());
	lg[4] = lg[0];
	MOVSS_RUN(lg->result = hw_movss_int80());
	lg[5] = lg[0];
	MOVSS_RUN(hw_movss_intn());
	lg->done = 1;
	return 0;
}

static bool shadow_missing(const struct movss_log *l, const char *at)
{
	return l->traps >= 1 && l->first_code == TRAP_HWBKPT && l->first_rip == (uintptr_t)at;
}

static void group_movss(void)
{
	struct movss_log *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
	pid_t pid;
	int st;

	if (s == MAP_FAILED) {
		el_fail("movss: shared page", "mmap: %s", strerror(errno));
		return;
	}
	memset(s, 0, 4096);
	lg = s;
	pid = pt_child("movss: child", child_movss);
	if (pid < 0)
		return;
	if (poke_dr(pid, 0, (unsigned long)&hw_ss_sel) || poke_dr(pid, 7, DR7_RW2) ||
	    ptrace(PTRACE_DETACH, pid, NULL, NULL)) {
		el_fail("movss: arm and detach", "%s", strerror(errno));
		pt_abandon(pid);
		return;
	}
	st = pt_wait(pid);
	if (!el_expect("movss: child ends", WIFEXITED(st) && WEXITSTATUS(st) == 0 && s->done,
		       "wait status %#x, done %d", st, s->done))
		return;
	memcpy(logs, s, sizeof(logs));
	/* logs[k]: the state after sequence k (0: the last one, INT $0x41). */
	if (logs[1].traps == 0 && dr_fire != 1) {
		el_skip("movss", "a user read of the watched selector raised no SIGTRAP: this CPU "
			"raised no #DB for the armed watchpoint");
		return;
	}
	el_expect("movss: watchpoint armed (a user read traps)",
		  logs[1].traps == 1 && logs[1].trap_code == TRAP_HWBKPT && logs[1].alive,
		  "%d SIGTRAPs, code %d", logs[1].traps, logs[1].trap_code);
	if (shadow_missing(&logs[2], hw_movss_syscall_at))
		el_skip("movss: SYSCALL", "the #DB came before the SYSCALL, at %#lx: this CPU "
			"does not hold it in the MOV SS shadow", (unsigned long)logs[2].trap_rip);
	else
		el_expect("movss: SYSCALL: no signal, getpid's result, kernel alive",
			  logs[2].traps == 0 && logs[2].segvs == 0 && logs[2].result == logs[2].pid &&
				  logs[2].alive,
			  "%d SIGTRAPs (code %d at %#lx), %d SIGSEGVs, result %ld", logs[2].traps,
			  logs[2].trap_code, (unsigned long)logs[2].trap_rip, logs[2].segvs,
			  logs[2].result);
	if (shadow_missing(&logs[3], hw_movss_int3_at))
		el_skip("movss: INT3", "the #DB came before the INT3: no MOV SS shadow here");
	else
		el_expect("movss: INT3: only the #BP's SIGTRAP (SI_KERNEL), kernel alive",
			  logs[3].traps == 1 && logs[3].trap_code == SI_KERNEL &&
				  logs[3].trap_rip == (uintptr_t)hw_movss_int3_at + 1 &&
				  logs[3].segvs == 0 && logs[3].alive,
			  "%d SIGTRAPs (code %d at %#lx), %d SIGSEGVs", logs[3].traps,
			  logs[3].trap_code, (unsigned long)logs[3].trap_rip, logs[3].segvs);
	if (shadow_missing(&logs[5], hw_movss_int80_at))
		el_skip("movss: INT $0x80", "the #DB came before the INT: no MOV SS shadow here");
	else if (logs[4].plain_int80 == logs[4].pid)
		el_expect("movss: INT $0x80 (a gate): no signal, getpid's result, kernel alive",
			  logs[5].traps == 0 && logs[5].segvs == 0 && logs[5].result == logs[5].pid &&
				  logs[5].alive,
			  "%d SIGTRAPs (code %d), %d SIGSEGVs, result %ld", logs[5].traps,
			  logs[5].trap_code, logs[5].segvs, logs[5].result);
	else
		el_expect("movss: INT $0x80 (no gate): only its SIGSEGV, kernel alive",
			  logs[4].segvs == 1 && logs[5].traps == 0 && logs[5].segvs == 1 &&
				  logs[5].segv_rip == (uintptr_t)hw_movss_int80_at && logs[5].alive,
			  "plain: %d SIGSEGVs; after MOV SS %d SIGTRAPs (code %d), %d SIGSEGVs at %#lx",
			  logs[4].segvs, logs[5].traps, logs[5].trap_code, logs[5].segvs,
			  (unsigned long)logs[5].segv_rip);
	if (shadow_missing(&logs[0], hw_movss_intn_at))
		el_skip("movss: INT $0x41", "the #DB came before the INT: no MOV SS shadow here");
	else
		el_expect("movss: INT $0x41: only its SIGSEGV (SI_KERNEL), kernel alive",
			  logs[0].traps == 0 && logs[0].segvs == 1 && logs[0].segv_code == SI_KERNEL &&
				  logs[0].segv_rip == (uintptr_t)hw_movss_intn_at && logs[0].alive,
			  "%d SIGTRAPs (code %d at %#lx), %d SIGSEGVs (code %d at %#lx)",
			  logs[0].traps, logs[0].trap_code, (unsigned long)logs[0].trap_rip,
			  logs[0].segvs, logs[0].segv_code, (unsigned long)logs[0].segv_rip);
}

static const struct el_group groups[] = {
	{"regs", "DR0-DR7 through PEEKUSER and POKEUSER, and their errnos", group_regs},
	{"watch", "a write watchpoint: SIGTRAP with TRAP_HWBKPT and si_addr", group_watch},
	{"exec", "an execute breakpoint, and RF so it fires once", group_exec},
	{"kernel", "a watchpoint the kernel's copy hits", group_kernel},
	{"fork", "breakpoints across fork", group_fork},
	{"execve", "breakpoints across execve", group_execve},
	{"movss", "MOV SS before SYSCALL and INT (CVE-2018-8897)", group_movss},
};

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--exit0"))
		return 0; /* the image group execve runs */
	return EL_RUN_GROUPS("hwbpcheck", groups, _IOLBF, argc, argv);
}
