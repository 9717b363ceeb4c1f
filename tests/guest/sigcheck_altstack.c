/*
 * sigcheck altstack: sigaltstack as Linux has it.  An SA_ONSTACK handler
 * runs on the alternate stack and sees SS_ONSTACK there, a handler without
 * it stays on the normal stack; the stack cannot change while in use
 * (EPERM); sizes under MINSIGSTKSZ are ENOMEM, bad flags EINVAL;
 * AT_MINSIGSTKSZ is in the auxiliary vector; and a fault with a wild RSP is
 * still delivered on the alternate stack, where the handler repairs it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

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
	munmap(alt, ALT_SIZE);
}
