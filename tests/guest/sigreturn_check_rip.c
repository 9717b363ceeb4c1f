/*
 * sigreturn_check rip: sigreturn to a RIP the CPU cannot run.
 *   - non-canonical (1 << 47 ... 1 << 63), with RCX = RIP and R11 = RFLAGS so
 *     that SYSRET looks possible: SYSRET would #GP in kernel mode on Intel, so
 *     the kernel must use IRET, whose #GP becomes the user's SIGSEGV
 *     (SI_KERNEL, trapno 13) with the frame's RIP the bad one;
 *   - canonical but not user (kernel half) and canonical unmapped: a page
 *     fault on the fetch, SEGV_MAPERR with si_addr = RIP;
 *   - a SYSCALL in the last two bytes of the user address space: its return
 *     address 0x7ffffffff000 is canonical but unmappable (as sysret_rip.c);
 *   - without a SIGSEGV handler, a forked child dies of SIGSEGV.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sigreturn_check.h"

static uint64_t target;

static void edit_rip(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;

	g[REG_RIP] = (greg_t)target;
	g[REG_RCX] = (greg_t)target;
	g[REG_R11] = g[REG_EFL];
}

/*
 * Bits 47..55 are canonical under 5-level paging (CR4.LA57, which user mode
 * cannot read; CPUID may offer LA57 to a kernel that does not use it): there
 * the fetch page-faults instead (SEGV_MAPERR, si_addr = RIP).  Both are Linux.
 */
static int noncanonical_ok(int bit)
{
	const struct sr_fault *f = &sr_fault;
	int gp = f->si.si_code == SR_SI_KERNEL && f->gregs[REG_TRAPNO] == 13 &&
		 f->si.si_addr == NULL;
	int pf = bit < 56 && f->si.si_code == SEGV_MAPERR && f->gregs[REG_TRAPNO] == 14 &&
		 (uint64_t)(uintptr_t)f->si.si_addr == 1ull << bit;

	return f->count == 1 && f->signo == SIGSEGV && (uint64_t)f->gregs[REG_RIP] == 1ull << bit &&
	       (gp || pf);
}

static void noncanonical(void)
{
	int good = 0, first_bad = -1;
	struct sr_fault bad = {0};

	for (int bit = 47; bit < 64; bit++) {
		target = 1ull << bit;
		sr_run(edit_rip);
		if (noncanonical_ok(bit)) {
			good++;
		} else if (first_bad < 0) {
			first_bad = bit;
			bad = sr_fault;
		}
	}
	el_expect("rip.noncanonical_sigsegv", good == 17,
		  "%d of 17 RIPs 1<<47..1<<63 ended in SIGSEGV SI_KERNEL #GP (or, below 1<<56, a "
		  "page fault) at that RIP; first bad 1<<%d: %d faults, signal %d si_code %#x "
		  "trapno %lld RIP %#llx",
		  good, first_bad, bad.count, bad.signo, (unsigned)bad.si.si_code,
		  (long long)bad.gregs[REG_TRAPNO], (unsigned long long)bad.gregs[REG_RIP]);
}

static void canonical_unrunnable(const char *name, uint64_t rip)
{
	target = rip;
	sr_run(edit_rip);
	el_expect(name,
		  sr_fault.count == 1 && sr_fault.signo == SIGSEGV &&
			  sr_fault.si.si_code == SEGV_MAPERR &&
			  (uint64_t)(uintptr_t)sr_fault.si.si_addr == rip &&
			  (uint64_t)sr_fault.gregs[REG_RIP] == rip && sr_fault.gregs[REG_TRAPNO] == 14,
		  "%d faults, signal %d si_code %d si_addr %p trapno %lld RIP %#llx (want %#llx)",
		  sr_fault.count, sr_fault.signo, sr_fault.si.si_code, sr_fault.si.si_addr,
		  (long long)sr_fault.gregs[REG_TRAPNO], (unsigned long long)sr_fault.gregs[REG_RIP],
		  (unsigned long long)rip);
}

/* The SIGSEGV handler (sigreturn_check_run.c) restores the SIGUSR1 frame; here a plain one. */
static struct {
	int count, code;
	uint64_t rip, addr;
} top;

static void pop_return(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;

	(void)sig;
	top.count++;
	top.code = si->si_code;
	top.rip = (uint64_t)g[REG_RIP];
	top.addr = (uint64_t)(uintptr_t)si->si_addr;
	g[REG_RIP] = (greg_t) * (uint64_t *)g[REG_RSP];
	g[REG_RSP] += 8;
}

/*
 * The last user page for the SYSCALL: a fresh mapping where the kernel gives
 * us that address, else (the stack ends there, as in the entrylab guest) the
 * stack's own top page, made executable for the test with its last two bytes
 * saved and put back.  Returns the page, or NULL; *own says which.
 */
static uint8_t *top_page(int *own, uint8_t saved[2])
{
	uint8_t *page = (uint8_t *)0x7fffffffe000ull;
	uint8_t *p = mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == page) {
		*own = 1;
		memset(p, 0xcc, 4096);
		p[4094] = 0x0f; /* SYSCALL, in the last two bytes */
		p[4095] = 0x05;
		mprotect(p, 4096, PROT_READ | PROT_EXEC);
		return p;
	}
	if (p != MAP_FAILED)
		munmap(p, 4096);
	*own = 0;
	if (mprotect(page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC))
		return NULL;
	memcpy(saved, page + 4094, 2);
	page[4094] = 0x0f;
	page[4095] = 0x05;
	return page;
}

static void syscall_at_the_top(void)
{
	const uint64_t end = 0x7ffffffff000ull;
	struct sigaction sa, old;
	long nr = SYS_getpid;
	uint8_t saved[2];
	int own;
	uint8_t *p = top_page(&own, saved);

	if (!p) {
		el_skip("rip.syscall_falls_off_the_top",
			"the last user page is neither free nor ours to make executable");
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = pop_return;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &old);
	memset(&top, 0, sizeof(top));
	/* Below the red zone: the call pushes. */
	__asm__ volatile("subq	$128, %%rsp\n\t"
			 "call	*%[fn]\n\t"
			 "addq	$128, %%rsp"
			 : "+a"(nr)
			 : [fn] "r"(p + 4094)
			 : "rcx", "r11", "memory");
	sigaction(SIGSEGV, &old, NULL);
	if (own) {
		munmap(p, 4096);
	} else {
		memcpy(p + 4094, saved, 2);
		mprotect(p, 4096, PROT_READ | PROT_WRITE);
	}
	el_expect("rip.syscall_falls_off_the_top",
		  top.count == 1 && top.code == SEGV_MAPERR && top.rip == end && top.addr == end,
		  "%d faults, si_code %d RIP %#llx si_addr %#llx (want %#llx; SYSCALL in %s)",
		  top.count, top.code, (unsigned long long)top.rip, (unsigned long long)top.addr,
		  (unsigned long long)end, own ? "a fresh page" : "the stack's top page");
}

static void child_dies(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		sr_run(NULL); /* installs the handlers; then SIGSEGV back to the default */
		signal(SIGSEGV, SIG_DFL);
		target = 1ull << 63;
		sr_run(edit_rip);
		_exit(0);
	}
	el_expect("rip.noncanonical_kills_without_handler",
		  pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
			  WTERMSIG(st) == SIGSEGV,
		  "fork %d, wait status %#x (want killed by SIGSEGV)", pid, st);
}

void sr_rip(void)
{
	noncanonical();
	canonical_unrunnable("rip.kernel_half_pagefault", 0xffff800000000000ull);
	canonical_unrunnable("rip.unmapped_user_pagefault", 0x1000);
	syscall_at_the_top();
	child_dies();
}
