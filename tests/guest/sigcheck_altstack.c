/*
 * sigcheck altstack: sigaltstack as Linux has it.  An SA_ONSTACK handler
 * runs on the alternate stack and sees SS_ONSTACK there, a handler without
 * it stays on the normal stack; the stack cannot change while in use
 * (EPERM); sizes under MINSIGSTKSZ are ENOMEM, bad flags EINVAL;
 * AT_MINSIGSTKSZ is in the auxiliary vector, Linux's size (its formula), and
 * enough; a fault with a wild RSP is still delivered on the alternate stack,
 * where the handler repairs it.  A frame that does not fit (RSP near the
 * bottom of the stack it is on; a stack smaller than AT_MINSIGSTKSZ, where
 * sigaltstack accepts one) is SIGSEGV, and SIGSEGV that cannot fit kills;
 * SS_AUTODISARM starts again at the top.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/sys.h"
#include "sigcheck.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

#define ALT_SIZE (64 * 1024ul)

static char *alt;
static stack_t inside;
static int inside_ret, change_errno;

static void onstack_handler(int sig, siginfo_t *si, void *ctx)
{
	stack_t other = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0};

	sc_record(sig, si, ctx);
	inside_ret = sigaltstack(NULL, &inside);
	change_errno = sigaltstack(&other, NULL) ? errno : 0;
}

static int on_alt(uintptr_t p)
{
	return p >= (uintptr_t)alt && p < (uintptr_t)alt + ALT_SIZE;
}

static void basic(void)
{
	stack_t ss, got;

	memset(&got, 0, sizeof(got));
	el_expect("altstack.initially_disabled", sigaltstack(NULL, &got) == 0 && got.ss_flags == SS_DISABLE,
		  "flags %d", got.ss_flags);
	ss = (stack_t){.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0};
	el_expect("altstack.set", sigaltstack(&ss, NULL) == 0, "%s", strerror(errno));
	memset(&got, 0, sizeof(got));
	sigaltstack(NULL, &got);
	el_expect("altstack.query", got.ss_sp == alt && got.ss_size == ALT_SIZE && got.ss_flags == 0,
		  "sp %p size %zu flags %d", got.ss_sp, got.ss_size, got.ss_flags);

	sc_install(SIGUSR1, onstack_handler, SA_ONSTACK);
	sc_reset();
	raise(SIGUSR1);
	el_expect("altstack.handler_on_alt_stack", sc_seen.count == 1 && on_alt(sc_seen.local),
		  "handler local at %#lx, alt stack %p..+%#lx", (unsigned long)sc_seen.local, alt,
		  ALT_SIZE);
	el_expect("altstack.ss_onstack_inside", inside_ret == 0 && inside.ss_flags == SS_ONSTACK,
		  "sigaltstack inside: %d flags %d", inside_ret, inside.ss_flags);
	el_expect("altstack.change_while_on_it_eperm", change_errno == EPERM, "errno %s",
		  strerror(change_errno));
	el_expect("altstack.uc_stack", sc_seen.uc_stack.ss_sp == alt &&
			  sc_seen.uc_stack.ss_size == ALT_SIZE && sc_seen.uc_stack.ss_flags == 0,
		  "uc_stack sp %p size %zu flags %d", sc_seen.uc_stack.ss_sp, sc_seen.uc_stack.ss_size,
		  sc_seen.uc_stack.ss_flags);
	el_expect("altstack.rsp_in_frame_is_normal_stack", !on_alt((uintptr_t)sc_seen.gregs[REG_RSP]),
		  "interrupted RSP %#llx", (unsigned long long)sc_seen.gregs[REG_RSP]);
	memset(&got, 0, sizeof(got));
	sigaltstack(NULL, &got);
	el_expect("altstack.flags_0_outside", got.ss_flags == 0, "flags %d", got.ss_flags);

	sc_install(SIGUSR1, sc_record_handler, 0);
	sc_reset();
	raise(SIGUSR1);
	el_expect("altstack.no_sa_onstack_normal_stack", sc_seen.count == 1 && !on_alt(sc_seen.local),
		  "handler local at %#lx", (unsigned long)sc_seen.local);
	sc_default(SIGUSR1);
}

static void argument_checks(void)
{
	stack_t small = {.ss_sp = alt, .ss_size = MINSIGSTKSZ - 1, .ss_flags = 0};
	stack_t bad = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0x1234};
	stack_t off = {.ss_flags = SS_DISABLE}, got;
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	int r, e;

	r = sigaltstack(&small, NULL);
	e = errno;
	el_expect("altstack.below_minsigstksz_enomem", r == -1 && e == ENOMEM, "%d %s", r,
		  strerror(e));
	r = sigaltstack(&bad, NULL);
	e = errno;
	el_expect("altstack.bad_flags_einval", r == -1 && e == EINVAL, "%d %s", r, strerror(e));
	el_expect("altstack.at_minsigstksz", minsig >= 512 && minsig <= ALT_SIZE,
		  "AT_MINSIGSTKSZ %lu: want the signal frame size (0: missing from the auxv)",
		  minsig);
	r = sigaltstack(&off, NULL);
	memset(&got, 0, sizeof(got));
	sigaltstack(NULL, &got);
	el_expect("altstack.disable", r == 0 && got.ss_flags == SS_DISABLE, "%d flags %d", r,
		  got.ss_flags);
	sc_install(SIGUSR1, onstack_handler, SA_ONSTACK);
	sc_reset();
	raise(SIGUSR1);
	el_expect("altstack.disabled_sa_onstack_normal_stack",
		  sc_seen.count == 1 && !on_alt(sc_seen.local) && inside.ss_flags == SS_DISABLE,
		  "handler local at %#lx, flags inside %d", (unsigned long)sc_seen.local,
		  inside.ss_flags);
	sc_default(SIGUSR1);
}

/* The faulting code parked the real RSP in R12: put it back and skip the push. */
static void repair_stack(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_record(sig, si, ctx);
	uc->uc_mcontext.gregs[REG_RSP] = uc->uc_mcontext.gregs[REG_R12];
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)sc_site_resume;
}

/* A stack overflow: RSP points at an unmapped page, so only the alternate stack can take the frame. */
static void wild_rsp(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0};
	char *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t wild = (uintptr_t)hole + 2048;

	munmap(hole, 4096);
	sigaltstack(&ss, NULL);
	sc_install(SIGSEGV, repair_stack, SA_ONSTACK);
	sc_reset();
	__asm__ volatile("movq	%%rsp, %%r12\n\t"
			 "movq	%[wild], %%rsp\n\t" SC_SITE("pushq	$0") "movq	%%r12, %%rsp"
			 : SC_SITE_OPS
			 : [wild] "r"(wild)
			 : "r11", "r12", "memory");
	el_expect("altstack.fault_with_wild_rsp",
		  sc_seen.count == 1 && on_alt(sc_seen.local) && sc_seen.si.si_code == SEGV_MAPERR &&
			  (uintptr_t)sc_seen.si.si_addr == wild - 8 &&
			  (uintptr_t)sc_seen.gregs[REG_RSP] == wild,
		  "count %d on alt %d si_code %d si_addr %p rsp %#llx", sc_seen.count,
		  on_alt(sc_seen.local), sc_seen.si.si_code, sc_seen.si.si_addr,
		  (unsigned long long)sc_seen.gregs[REG_RSP]);
	sc_default(SIGSEGV);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* --- a frame that does not fit the alternate stack (get_sigframe's check) --- */

static void exit_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)si, (void)ctx;
	_exit(sig == SIGSEGV ? 40 : 41);
}

/* tkill(self, sig) with RSP at rsp for the duration of the system call. */
static long tkill_at(uintptr_t rsp, int sig)
{
	long ret = SYS_tkill;

	__asm__ volatile("movq	%%rsp, %%r12\n\t"
			 "movq	%[rsp], %%rsp\n\t"
			 "syscall\n\t"
			 "movq	%%r12, %%rsp"
			 : "+a"(ret)
			 : [rsp] "r"(rsp), "D"(el_syscall1(SYS_gettid, 0)), "S"((long)sig)
			 : "rcx", "r11", "r12", "memory");
	return ret;
}

/* Runs fn in a child; its wait status. */
static int in_child(void (*fn)(void))
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/*
 * RSP inside the alternate stack, 256 bytes above its bottom: the signal
 * is nested there (on_sig_stack), its frame would go below the bottom:
 * SIGSEGV, whose frame cannot go there either, so SIGSEGV kills.
 */
static void nested_overflow_child(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0};

	sigaltstack(&ss, NULL);
	sc_install(SIGUSR1, exit_handler, 0);
	sc_install(SIGSEGV, exit_handler, 0);
	tkill_at((uintptr_t)alt + 256, SIGUSR1);
	_exit(42);
}

/* SS_AUTODISARM: never "on" the stack, so the same signal starts again at its top. */
static void autodisarm_child(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = SS_AUTODISARM};

	sigaltstack(&ss, NULL);
	sc_install(SIGUSR1, sc_record_handler, SA_ONSTACK);
	sc_install(SIGSEGV, exit_handler, 0);
	sc_reset();
	tkill_at((uintptr_t)alt + 256, SIGUSR1);
	_exit(sc_seen.count == 1 && sc_seen.local > (uintptr_t)alt + ALT_SIZE / 2 ? 0 : 43);
}

/*
 * An alternate stack of size bytes at the top of alt (the handler's own
 * calls may run below it, into alt): SIGUSR1 with SA_ONSTACK.  Exit 0: the
 * handler ran, 40: SIGSEGV instead (its handler, on the normal stack).
 */
static unsigned long child_size;

static void sized_child(void)
{
	stack_t ss = {.ss_sp = alt + ALT_SIZE - child_size, .ss_size = child_size, .ss_flags = 0};

	if (sigaltstack(&ss, NULL))
		_exit(44);
	sc_install(SIGUSR1, sc_record_handler, SA_ONSTACK);
	sc_install(SIGSEGV, exit_handler, 0);
	sc_reset();
	raise(SIGUSR1);
	_exit(sc_seen.count == 1 ? 0 : 45);
}

static void overflow(void)
{
	unsigned long minsig = getauxval(AT_MINSIGSTKSZ);
	int st;

	st = in_child(nested_overflow_child);
	el_expect("altstack.nested_overflow_kills_with_sigsegv",
		  WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		  "wait status %#x (exit 40/41: a handler ran; 42: the signal was lost)", st);
	st = in_child(autodisarm_child);
	el_expect("altstack.autodisarm_restarts_at_the_top", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "wait status %#x (exit 40: SIGSEGV; 43: handler not at the top)", st);
	child_size = minsig > MINSIGSTKSZ ? minsig : MINSIGSTKSZ;
	st = in_child(sized_child);
	el_expect("altstack.at_minsigstksz_is_enough", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "an alternate stack of %lu bytes (AT_MINSIGSTKSZ %lu): wait status %#x (exit 40: "
		  "SIGSEGV)", child_size, minsig, st);
	/* Linux's x86 sigaltstack selftest: accepted (>= MINSIGSTKSZ) yet smaller than the frame. */
	if (minsig <= MINSIGSTKSZ + 1) {
		el_skip("altstack.too_small_sigsegv", "AT_MINSIGSTKSZ %lu: every stack sigaltstack "
			"accepts (>= MINSIGSTKSZ %d) holds the frame", minsig, MINSIGSTKSZ);
		return;
	}
	child_size = MINSIGSTKSZ + 1;
	st = in_child(sized_child);
	el_expect("altstack.too_small_sigsegv", WIFEXITED(st) && WEXITSTATUS(st) == 40,
		  "an alternate stack of %lu bytes, AT_MINSIGSTKSZ %lu: wait status %#x (want "
		  "exit 40: SIGSEGV)", child_size, minsig, st);
}

/* AT_MINSIGSTKSZ as Linux 6.1 computes it (init_sigframe_size; sigframe.h in the kernel). */
static void at_minsigstksz_formula(void)
{
	unsigned a, b, c, d, image = 512, magic2 = 0;
	unsigned long want, got = getauxval(AT_MINSIGSTKSZ);

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE)) {
		uint32_t lo, hi;
		uint64_t xcr0;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		xcr0 = (uint64_t)hi << 32 | lo;
		/* The standard-format size for XCR0: CPUID.0xD.0 EBX, or its last component's end. */
		__cpuid_count(0xd, 0, a, b, c, d);
		image = b;
		for (unsigned i = 2; i < 64; i++) {
			if (!(xcr0 & (1ull << i)))
				continue;
			__cpuid_count(0xd, i, a, b, c, d);
			if (b + a > image)
				image = b + a;
		}
		magic2 = 4;
	}
	want = (736 + 15 + image + magic2 + 112 + 63 + 15) & ~15ul;
	el_expect("altstack.at_minsigstksz_formula", got == want,
		  "AT_MINSIGSTKSZ %lu, want %lu: sigframe_ia32 736 + 15 + image %u + magic2 %u + "
		  "fsave 112 + 63, to 16", got, want, image, magic2);
}

void sc_altstack(void)
{
	alt = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt == MAP_FAILED) {
		el_fail("altstack.mmap", "%s", strerror(errno));
		return;
	}
	basic();
	argument_checks();
	wild_rsp();
	overflow();
	at_minsigstksz_formula();
	munmap(alt, ALT_SIZE);
}
