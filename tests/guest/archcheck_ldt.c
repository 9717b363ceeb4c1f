/*
 * archcheck ldt: modify_ldt as Linux has it, and LDT selectors in use.
 *   - write entry 0 (func 1, the old mode: Linux clears "useable") as a
 *     32-bit data segment over a buffer below 4 GiB (our .bss), and entry 1
 *     (func 0x11) as a 32-bit code segment with base 0, asking for lm=1 (Linux
 *     never sets L in an LDT descriptor); read back (func 0) gives Linux's encoding;
 *     bad arguments are EINVAL, returned as Linux does: a 32-bit int;
 *   - %gs = the data selector reads the buffer through the segment base, and
 *     keeps doing so after a system call, sched_yield, a page fault and a
 *     signal handler;
 *   - CS = the code selector, entered by sigreturn: 32-bit code runs there,
 *     takes a page fault the kernel resolves (the return must be an IRET to
 *     that CS), and its INT3's SIGTRAP frame shows that CS; the handler's
 *     sigreturn goes back to 64-bit.
 *     In a forked child, so that a kernel which mishandles it kills only that.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "archcheck.h"
#include "lib/sys.h"

struct user_desc {
	unsigned int entry_number, base_addr, limit;
	unsigned int seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1, lm : 1;
};

#define SEL(entry) ((entry) << 3 | 4 | 3)  /* LDT, RPL 3 */

/*
 * Memory below 4 GiB, where 32-bit bases and compat-mode addresses reach: this
 * binary's .bss (it is not PIE: 0x400000).  Not mmap(MAP_32BIT), which not
 * every kernel honours.  fresh is never touched before the compat-mode load, so
 * that load takes the page fault that makes .bss pages.
 */
static struct {
	uint32_t data[1024];
	uint8_t compat_stack[65536];
	uint8_t fresh[4096];
} low __attribute__((aligned(4096)));

/* modify_ldt's result is an int: Linux hands back (unsigned int)ret, so -EINVAL arrives as 0xffffffea. */
static long modify_ldt(int func, void *p, unsigned long n)
{
	return el_syscall3(SYS_modify_ldt, func, (long)p, (long)n);
}
#define LDT_ERR(e) ((long)(unsigned int)-(e))

/* The 8 bytes Linux's fill_ldt() makes of a user_desc: accessed bit set, L never, AVL
 * only in the new mode. */
static uint64_t encode(const struct user_desc *d, int oldmode)
{
	uint64_t type = (uint64_t)((d->read_exec_only ^ 1) << 1 | d->contents << 2 | 1);

	return (d->limit & 0xffffull) | (uint64_t)(d->base_addr & 0xffffff) << 16 | type << 40 |
	       1ull << 44 | 3ull << 45 | (uint64_t)(d->seg_not_present ^ 1) << 47 |
	       (uint64_t)(d->limit >> 16 & 0xf) << 48 | (uint64_t)(oldmode ? 0 : d->useable) << 52 |
	       (uint64_t)d->seg_32bit << 54 | (uint64_t)d->limit_in_pages << 55 |
	       (uint64_t)(d->base_addr >> 24) << 56;
}

static uint16_t gs_now(void)
{
	uint16_t v;

	__asm__ volatile("movw	%%gs, %0" : "=r"(v));
	return v;
}

static uint32_t read_gs0(void)
{
	uint32_t v;

	__asm__ volatile("movl	%%gs:0, %0" : "=r"(v) : : "memory");
	return v;
}

static volatile int usr1_runs;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_runs++;
}

static void data_in_gs(uint32_t *buf)
{
	const uint16_t sel = SEL(0);
	void *fresh = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok_load, ok_syscall, ok_yield, ok_fault, ok_signal;

	buf[0] = 0xfeedf00d;
	signal(SIGUSR1, on_usr1);
	__asm__ volatile("movw	%0, %%gs" : : "r"(sel));
	ok_load = gs_now() == sel && read_gs0() == 0xfeedf00d;
	getppid();
	ok_syscall = gs_now() == sel && read_gs0() == 0xfeedf00d;
	sched_yield();
	ok_yield = gs_now() == sel && read_gs0() == 0xfeedf00d;
	(void)*(volatile long *)fresh;
	ok_fault = gs_now() == sel && read_gs0() == 0xfeedf00d;
	raise(SIGUSR1);
	ok_signal = gs_now() == sel && read_gs0() == 0xfeedf00d && usr1_runs == 1;
	el_expect("ldt.gs_data_segment_reads_through_base", ok_load,
		  "%%gs %#x, %%gs:0 %#x (want %#x, 0xfeedf00d)", gs_now(), read_gs0(), sel);
	el_expect("ldt.gs_kept_across_syscall_yield_fault_signal",
		  ok_syscall && ok_yield && ok_fault && ok_signal,
		  "after a syscall %d, sched_yield %d, a page fault %d, a handler %d", ok_syscall,
		  ok_yield, ok_fault, ok_signal);
	__asm__ volatile("movw	%0, %%gs" : : "r"((uint16_t)0));
	el_syscall2(SYS_arch_prctl, 0x1001 /* ARCH_SET_GS */, 0);
	signal(SIGUSR1, SIG_DFL);
	munmap(fresh, 4096);
}

int ac_tid;
uint64_t ac_compat_saved_rsp;
void ac_compat_run(void);
extern const char ac_compat_back[], ac_compat_code[], ac_compat_after_int3[];

static uint16_t user_cs, compat_cs;
static volatile struct {
	int count, code;
	uint64_t rip, rdx, rax;
	uint16_t cs;
} trap;

static void set_cs(greg_t *g, uint16_t cs)
{
	g[REG_CSGSFS] = (greg_t)(((uint64_t)g[REG_CSGSFS] & ~0xffffull) | cs);
}

/* SIGUSR1 from ac_compat_run: return into the 32-bit code instead (IRET to the LDT CS). */
static void enter_compat(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;

	(void)sig;
	(void)si;
	set_cs(g, compat_cs);
	g[REG_RIP] = (greg_t)(uintptr_t)ac_compat_code;
	g[REG_RSP] = (greg_t)(uintptr_t)(low.compat_stack + sizeof(low.compat_stack));
	g[REG_RBX] = (greg_t)(uintptr_t)low.fresh;
}

/* The INT3 in compat mode: note the frame, then back to 64-bit code at ac_compat_back. */
static void compat_trap(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;

	(void)sig;
	trap.count++;
	trap.code = si->si_code;
	trap.rip = (uint64_t)g[REG_RIP];
	trap.rdx = (uint64_t)g[REG_RDX];
	trap.rax = (uint64_t)g[REG_RAX];
	trap.cs = (uint16_t)g[REG_CSGSFS];
	set_cs(g, user_cs);
	g[REG_RIP] = (greg_t)(uintptr_t)ac_compat_back;
	g[REG_RSP] = (greg_t)ac_compat_saved_rsp;
}

/* Returns the number of failed checks. */
static int code_in_cs(void)
{
	struct sigaction sa, old_trap, old_usr1;
	uint16_t cs_after;
	int bad = 0;

	if ((uintptr_t)ac_compat_code >> 32 || ((uintptr_t)&low + sizeof(low)) >> 32) {
		el_skip("ldt.compat_code", "this binary lies above 4 GiB (PIE?): no 32-bit code");
		return 0;
	}
	__asm__ volatile("movw	%%cs, %0" : "=r"(user_cs));
	compat_cs = SEL(1);
	ac_tid = (int)el_syscall1(SYS_gettid, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = compat_trap;
	sigaction(SIGTRAP, &sa, &old_trap);
	sa.sa_sigaction = enter_compat;
	sigaction(SIGUSR1, &sa, &old_usr1);
	memset((void *)&trap, 0, sizeof(trap));
	ac_compat_run();
	__asm__ volatile("movw	%%cs, %0" : "=r"(cs_after));
	sigaction(SIGTRAP, &old_trap, NULL);
	sigaction(SIGUSR1, &old_usr1, NULL);
	bad += !el_expect("ldt.compat_code_ran_and_trapped",
			  trap.count == 1 && trap.cs == compat_cs &&
				  (uint16_t)trap.rdx == compat_cs &&
				  trap.rip == (uintptr_t)ac_compat_after_int3 && trap.code == 0x80,
			  "%d traps, frame CS %#x (want %#x), %%cs seen there %#x, RIP %#llx (want "
			  "%p), si_code %#x",
			  trap.count, trap.cs, compat_cs, (unsigned)(uint16_t)trap.rdx,
			  (unsigned long long)trap.rip, (const void *)ac_compat_after_int3,
			  trap.code);
	bad += !el_expect("ldt.compat_page_fault_returned_to_compat",
			  trap.count == 1 && (uint32_t)trap.rax == 0,
			  "the load in 32-bit code gave %#llx", (unsigned long long)trap.rax);
	bad += !el_expect("ldt.back_to_64_bit_by_sigreturn", cs_after == user_cs, "%%cs %#x",
			  cs_after);
	return bad;
}

/*
 * The compat-mode run in a forked child: a kernel that mishandles the mode
 * switch kills that child, not the rest of archcheck.  The child prints its
 * own verdicts; its exit status is the number of them that failed.
 */
static void code_in_cs_isolated(void)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0)
		_exit(code_in_cs());
	if (pid < 0) {
		el_fail("ldt.compat_child", "fork: %s", strerror(errno));
		return;
	}
	waitpid(pid, &st, 0);
	el_expect("ldt.compat_child", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "the child running 32-bit code %s %d", WIFSIGNALED(st) ? "was killed by signal" :
		  "failed checks:", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}


void ac_ldt(void)
{
	uint32_t *buf = low.data;
	struct user_desc data = {.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1,
				 .limit_in_pages = 1, .useable = 1};
	struct user_desc code = {.entry_number = 1, .limit = 0xfffff, .seg_32bit = 1,
				 .contents = 2, .limit_in_pages = 1, .useable = 1, .lm = 1};
	struct user_desc bad = data;
	uint64_t got[4] = {0};
	long r;

	if ((uintptr_t)(buf + 1024) >> 32) {
		el_skip("ldt", "this binary lies above 4 GiB (PIE?): no 32-bit segment base for it");
		return;
	}
	data.base_addr = (unsigned)(uintptr_t)buf;
	r = modify_ldt(1, &data, sizeof(data));
	el_expect("ldt.write_data_entry", r == 0, "modify_ldt(1): %ld", r);
	r = modify_ldt(0x11, &code, sizeof(code));
	el_expect("ldt.write_code_entry", r == 0, "modify_ldt(0x11): %ld", r);
	bad.entry_number = 8192;
	r = modify_ldt(1, &bad, sizeof(bad));
	el_expect("ldt.entry_8192_einval", r == LDT_ERR(EINVAL), "modify_ldt(entry 8192): %#lx", r);
	r = modify_ldt(1, &data, sizeof(data) - 1);
	el_expect("ldt.short_write_einval", r == LDT_ERR(EINVAL), "modify_ldt(size 15): %#lx", r);
	r = modify_ldt(0, got, sizeof(got));
	el_expect("ldt.read_back",
		  r == (long)sizeof(got) && got[0] == encode(&data, 1) && got[1] == encode(&code, 0) &&
			  got[2] == 0,
		  "modify_ldt(0) %ld: %#llx %#llx %#llx, want %#llx %#llx 0", r,
		  (unsigned long long)got[0], (unsigned long long)got[1], (unsigned long long)got[2],
		  (unsigned long long)encode(&data, 1), (unsigned long long)encode(&code, 0));
	data_in_gs(buf);
	code_in_cs_isolated();
}
