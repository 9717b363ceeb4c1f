/*
 * espfixcheck: the IRET to a 16-bit stack segment (espfix64), as Linux's
 * sigreturn selftest probes it.  An IRET to an SS with B = 0 loads only
 * SP[15:0]; without espfix RSP[63:16] keep the kernel stack's bits.  Each
 * run: SIGUSR1's handler writes a context with an LDT SS (modify_ldt), a
 * 32-bit or 16-bit CS, a code address and RSP = 0x8badf00d5aadc0de; the
 * code (espfixcheck_asm.S) runs int3 without touching the stack, and the
 * SIGTRAP handler (on an alternate stack) records the RSP the CPU had:
 *   RSP[31:0]   must be the requested ones, after the sigreturn's IRET and
 *               after the returns from a page fault and from timer
 *               interrupts (a spinning child makes the timer preempt)
 *               taken with that SS loaded;
 *   RSP[63:32]  are not the requested ones on Linux either: with a 16-bit
 *               SS the CPU keeps the bits of the stack the IRET ran on, the
 *               espfix stack (0xffffff00-0xffffff7f: PML4 slot 510, Linux
 *               randomises bits 32-38 per boot) on AMD and under QEMU, 0 on
 *               Intel; never a kernel stack's.
 * A refused IRET from the espfix stack becomes SIGSEGV with trapno 13 and
 * error 0, whatever the CPU raised (Linux's #DF fixup): a not-present SS,
 * an SS beyond the LDT's limit.
 * The 32-bit code segment is an LDT one too: a kernel without IA-32
 * emulation (ia32_emulation=0, as on the machine this was written on) makes
 * USER32_CS unusable.  Runs natively on x86-64 Linux.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"

#define USER_DS              0x2b
#define UC_SIGCONTEXT_SS     0x2ul
#define UC_STRICT_RESTORE_SS 0x4ul
#define SI_KERNEL_CODE       0x80
#define REQ_RSP              0x8badf00d5aadc0deull

/* The LDT entries (selector = index << 3 | TI | RPL 3). */
enum { LDT_DATA16, LDT_DATA32, LDT_CODE16, LDT_DATA16_NP, LDT_CODE32, LDT_NR };
#define LDT_SEL(i)       ((uint16_t)((i) << 3 | 7))
#define SEL_BEYOND_LIMIT LDT_SEL(LDT_NR + 6)

/* struct user_desc (asm/ldt.h) */
struct ldt_desc {
	uint32_t entry_number, base_addr, limit;
	uint32_t seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1, lm : 1;
};

extern const char ef_code32[], ef_code32_trap[], ef_code16[];

/* What the next sigreturn loads, and what the trap after it saw. */
static struct {
	uint16_t cs, ss;
	uint64_t rip, rsp, rbx, rdx;
} req;
static struct {
	int signo, si_code;
	uint64_t rsp, rip, trapno, err;
	uint16_t cs, ss;
} got;
static sigjmp_buf back;
static char altstack[65536] __attribute__((aligned(16)));
/* Pages the 32-bit code touches first (one per run: a demand-zero #PF). */
static char fresh[16][4096] __attribute__((aligned(4096)));
static unsigned fresh_used;

static void set_seg(greg_t *g, uint16_t cs, uint16_t ss)
{
	g[REG_CSGSFS] = (greg_t)(((uint64_t)g[REG_CSGSFS] & 0x0000ffffffff0000ull) | cs |
				 (uint64_t)ss << 48);
}

static void edit(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;

	(void)sig, (void)si;
	set_seg(g, req.cs, req.ss);
	g[REG_RIP] = (greg_t)req.rip;
	g[REG_RSP] = (greg_t)req.rsp;
	g[REG_RBX] = (greg_t)req.rbx;
	g[REG_RDX] = (greg_t)req.rdx;
	uc->uc_flags |= UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
}

static void trapped(int sig, siginfo_t *si, void *ctx)
{
	const greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;

	got.signo = sig;
	got.si_code = si->si_code;
	got.rsp = (uint64_t)g[REG_RSP];
	got.rip = (uint64_t)g[REG_RIP];
	got.trapno = (uint64_t)g[REG_TRAPNO];
	got.err = (uint64_t)g[REG_ERR];
	got.cs = (uint16_t)g[REG_CSGSFS];
	got.ss = (uint16_t)((uint64_t)g[REG_CSGSFS] >> 48);
	siglongjmp(back, 1);
}

static int run(uint16_t cs, uint16_t ss, uint64_t rip, uint64_t rbx, uint64_t rdx)
{
	req.cs = cs;
	req.ss = ss;
	req.rip = rip;
	req.rsp = REQ_RSP;
	req.rbx = rbx;
	req.rdx = rdx;
	memset(&got, 0, sizeof(got));
	if (!sigsetjmp(back, 1))
		raise(SIGUSR1);
	return got.signo;
}

static int ldt_set(unsigned idx, uint32_t base, int bits32, int contents, int present)
{
	struct ldt_desc d = {.entry_number = idx,
			     .base_addr = base,
			     .limit = 0xffff,
			     .seg_32bit = (unsigned)bits32,
			     .contents = (unsigned)contents,
			     .seg_not_present = (unsigned)!present,
			     .useable = 0};

	if (bits32) {
		d.limit = 0xfffff;
		d.limit_in_pages = 1;
	}
	return (int)syscall(SYS_modify_ldt, 1, &d, sizeof(d));
}

/* LAR: the CPU can load a descriptor for sel (ZF set). */
static int lar_ok(uint16_t sel)
{
	uint32_t ar;
	uint8_t ok;

	__asm__ volatile("lar %2, %0\n\tsetz %1" : "=r"(ar), "=q"(ok) : "r"((uint32_t)sel) : "cc");
	return ok;
}

static int high_is_espfix(uint64_t rsp)
{
	uint32_t hi = (uint32_t)(rsp >> 32);

	return hi == 0 || (hi >= 0xffffff00u && hi <= 0xffffff7fu);
}

/* The trap came, at the int3, with RSP[31:0] as requested and RSP[63:32] explained. */
static void expect_trap(const char *name, uint64_t trap_rip, int check_high)
{
	char hname[96];

	if (!el_expect(name,
		       got.signo == SIGTRAP && got.rip == trap_rip &&
			       (uint32_t)got.rsp == (uint32_t)REQ_RSP,
		       "signal %d (trapno %llu err %#llx) at RIP %#llx (want SIGTRAP at %#llx), "
		       "RSP %#llx: RSP[31:0] want %#x",
		       got.signo, (unsigned long long)got.trapno, (unsigned long long)got.err,
		       (unsigned long long)got.rip, (unsigned long long)trap_rip,
		       (unsigned long long)got.rsp, (unsigned)(uint32_t)REQ_RSP))
		return;
	printf("INFO: %s: RSP %#llx (requested %#llx): RSP[63:32] %#x\n", name,
	       (unsigned long long)got.rsp, (unsigned long long)REQ_RSP, (unsigned)(got.rsp >> 32));
	if (!check_high)
		return;
	snprintf(hname, sizeof(hname), "%s.high_bits_espfix", name);
	el_expect(hname, high_is_espfix(got.rsp),
		  "RSP[63:32] %#x: neither the espfix window's (0xffffff00-7f) nor 0: a kernel "
		  "stack's bits leak",
		  (unsigned)(got.rsp >> 32));
}

/* The IRET was refused: SIGSEGV (SI_KERNEL) with #GP(0) at the requested RIP. */
static void expect_gp0(const char *name, uint16_t ss)
{
	el_expect(name,
		  got.signo == SIGSEGV && got.si_code == SI_KERNEL_CODE && got.trapno == 13 &&
			  got.err == 0 && got.rip == (uint64_t)ef_code32,
		  "SS %#x: signal %d si_code %#x trapno %llu err %#llx RIP %#llx (want SIGSEGV "
		  "#GP(0) at %p)",
		  ss, got.signo, (unsigned)got.si_code, (unsigned long long)got.trapno,
		  (unsigned long long)got.err, (unsigned long long)got.rip, (const void *)ef_code32);
}

int main(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	struct sigaction sa = {.sa_sigaction = edit, .sa_flags = SA_SIGINFO};
	uint16_t d16 = LDT_SEL(LDT_DATA16);
	pid_t child;

	if ((uint64_t)ef_code32 >> 32 || (uint64_t)&fresh[15] >> 32) {
		el_skip("espfix", "code at %p: not below 4 GiB (a PIE?)", (const void *)ef_code32);
		return el_summary("espfixcheck");
	}
	if (ldt_set(LDT_DATA16, 0, 0, 0, 1) || ldt_set(LDT_DATA32, 0, 1, 0, 1) ||
	    ldt_set(LDT_CODE16, (uint32_t)(uintptr_t)ef_code16, 0, 2, 1) ||
	    ldt_set(LDT_DATA16_NP, 0, 0, 0, 0) || ldt_set(LDT_CODE32, 0, 1, 2, 1)) {
		el_fail("espfix.modify_ldt", "modify_ldt refused the segments");
		return el_summary("espfixcheck");
	}
	if (!lar_ok(LDT_SEL(LDT_CODE32)) || !lar_ok(d16)) {
		el_skip("espfix", "modify_ldt succeeded but LAR cannot see the entries: this "
				  "kernel keeps the LDT from the CPU (a sandbox), nothing to test");
		return el_summary("espfixcheck");
	}
	sigaltstack(&ss, 0);
	sigaction(SIGUSR1, &sa, 0);
	sa.sa_sigaction = trapped;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigaction(SIGTRAP, &sa, 0);
	sigaction(SIGSEGV, &sa, 0);
	sigaction(SIGBUS, &sa, 0);

	run(LDT_SEL(LDT_CODE32), d16, (uint64_t)ef_code32, 0, 0);
	expect_trap("espfix.sigreturn_ss16_cs32", (uint64_t)ef_code32_trap, 1);
	run(LDT_SEL(LDT_CODE16), d16, 0, 0, 0);
	expect_trap("espfix.sigreturn_ss16_cs16", 1, 1);
	run(LDT_SEL(LDT_CODE32), d16, (uint64_t)ef_code32, (uint64_t)fresh[fresh_used++], 0);
	expect_trap("espfix.page_fault_return_ss16", (uint64_t)ef_code32_trap, 1);
	/* The timer ticks only with two tasks runnable: a spinning child preempts the loop. */
	child = fork();
	if (child == 0)
		for (;;)
			;
	run(LDT_SEL(LDT_CODE32), d16, (uint64_t)ef_code32, 0, 200000000);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, 0, 0);
	}
	expect_trap("espfix.interrupt_returns_ss16", (uint64_t)ef_code32_trap, 1);
	/* A 32-bit SS loads ESP whole: RSP[63:32] are up to the CPU (usually 0). */
	run(LDT_SEL(LDT_CODE32), LDT_SEL(LDT_DATA32), (uint64_t)ef_code32, 0, 0);
	expect_trap("espfix.sigreturn_ss32_ldt", (uint64_t)ef_code32_trap, 0);

	run(LDT_SEL(LDT_CODE32), LDT_SEL(LDT_DATA16_NP), (uint64_t)ef_code32, 0, 0);
	expect_gp0("espfix.ss_not_present_gp0", LDT_SEL(LDT_DATA16_NP));
	run(LDT_SEL(LDT_CODE32), SEL_BEYOND_LIMIT, (uint64_t)ef_code32, 0, 0);
	expect_gp0("espfix.ss_beyond_ldt_gp0", SEL_BEYOND_LIMIT);

	/* Still sound afterwards: the next ordinary return is fine. */
	el_expect("espfix.after", getpid() > 0, "getpid failed");
	return el_summary("espfixcheck");
}
