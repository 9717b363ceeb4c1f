/*
 * sigcheck sync: synchronous signals from exceptions other than #PF, each
 * with the si_code, si_addr, trapno and err Linux x86-64 reports:
 *   #GP (non-canonical access, privileged instruction, int $n without a user
 *   gate) -> SIGSEGV SI_KERNEL; #UD -> SIGILL ILL_ILLOPN; #DE -> SIGFPE
 *   FPE_INTDIV; int3 -> SIGTRAP SI_KERNEL after the int3; TF -> SIGTRAP
 *   TRAP_TRACE after one instruction.
 */
#include <stdint.h>
#include <string.h>

#include "sigcheck.h"

#define X86_TF 0x100ul

struct want {
	const char *name;
	int signo, code;
	uintptr_t addr;      /* expected si_addr */
	uintptr_t rip;       /* expected RIP in the frame */
	long trapno, err;    /* err < 0: not checked */
};

static void expect(const struct want *w)
{
	const struct sc_seen *s = &sc_seen;

	el_expect(w->name,
		  s->count == 1 && s->signo == w->signo && s->si.si_signo == w->signo &&
			  s->si.si_code == w->code && (uintptr_t)s->si.si_addr == w->addr &&
			  (uintptr_t)s->gregs[REG_RIP] == w->rip && s->gregs[REG_TRAPNO] == w->trapno &&
			  (w->err < 0 || s->gregs[REG_ERR] == w->err),
		  "count %d signo %d/%d (want %d) si_code %#x (want %#x) si_addr %p (want %#lx) "
		  "rip %#llx (want %#lx) trapno %lld (want %ld) err %#llx (want %#lx)",
		  s->count, s->signo, s->si.si_signo, w->signo, (unsigned)s->si.si_code,
		  (unsigned)w->code, s->si.si_addr, (unsigned long)w->addr,
		  (unsigned long long)s->gregs[REG_RIP], (unsigned long)w->rip,
		  (long long)s->gregs[REG_TRAPNO], w->trapno, (unsigned long long)s->gregs[REG_ERR],
		  (unsigned long)w->err);
}

static void gp_noncanonical(void)
{
	long v = 0;

	sc_reset();
	sc_install(SIGSEGV, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("movq	(%[p]), %[v]")
			 : SC_SITE_OPS, [v] "+r"(v)
			 : [p] "r"(0x8000000000000000ul)
			 : "r11", "memory");
	expect(&(struct want){"gp.noncanonical_read", SIGSEGV, SC_SI_KERNEL, 0, sc_site_at, 13, 0});
}

static void gp_privileged(void)
{
	sc_reset();
	sc_install(SIGSEGV, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("hlt") : SC_SITE_OPS : : "r11", "memory");
	expect(&(struct want){"gp.hlt", SIGSEGV, SC_SI_KERNEL, 0, sc_site_at, 13, 0});
	sc_reset();
	__asm__ volatile(SC_SITE("cli") : SC_SITE_OPS : : "r11", "memory");
	expect(&(struct want){"gp.cli", SIGSEGV, SC_SI_KERNEL, 0, sc_site_at, 13, 0});
}

/*
 * int $0x55: no DPL-3 gate, so #GP with the IDT error code (vector << 3 | IDT
 * bit: 0x2aa), passed through by the kernel as the CPU gave it.  QEMU TCG
 * before 8.1 (the nested runner's CPU) gives vector << 4 | 2 in 64-bit mode,
 * its do_interrupt64 using the gate's byte offset; that is the CPU's doing and
 * cannot be told apart from inside a guest (no brand string), so it is
 * accepted too.
 */
static void gp_int_n(void)
{
	long want = 0x55 << 3 | 2;

	sc_reset();
	sc_install(SIGSEGV, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("int	$0x55") : SC_SITE_OPS : : "r11", "memory");
	if (sc_seen.gregs[REG_ERR] == (0x55 << 4 | 2))
		want = 0x55 << 4 | 2;
	expect(&(struct want){"gp.int_0x55", SIGSEGV, SC_SI_KERNEL, 0, sc_site_at, 13, want});
	sc_default(SIGSEGV);
}

static void ill_ud2(void)
{
	sc_reset();
	sc_install(SIGILL, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("ud2") : SC_SITE_OPS : : "r11", "memory");
	expect(&(struct want){"ill.ud2", SIGILL, ILL_ILLOPN, sc_site_at, sc_site_at, 6, 0});
	sc_default(SIGILL);
}

static void fpe_divide(void)
{
	unsigned eax = 1, edx = 0;
	int q = (int)0x80000000u, r = -1;

	sc_reset();
	sc_install(SIGFPE, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("divl	%[d]")
			 : SC_SITE_OPS, "+a"(eax), "+d"(edx)
			 : [d] "r"(0u)
			 : "r11", "memory");
	expect(&(struct want){"fpe.div_by_zero", SIGFPE, FPE_INTDIV, sc_site_at, sc_site_at, 0, 0});
	/* INT_MIN / -1 overflows: the same #DE, and Linux reports it as FPE_INTDIV too. */
	sc_reset();
	__asm__ volatile("cltd\n\t" SC_SITE("idivl	%[d]")
			 : SC_SITE_OPS, "+a"(q), "=&d"(r)
			 : [d] "r"(-1)
			 : "r11", "memory");
	expect(&(struct want){"fpe.idiv_overflow", SIGFPE, FPE_INTDIV, sc_site_at, sc_site_at, 0,
			      0});
	sc_default(SIGFPE);
}

/* int3 is a trap: RIP is past it and the handler just returns. */
static void trap_int3(void)
{
	sc_reset();
	sc_install(SIGTRAP, sc_record_handler, 0);
	__asm__ volatile(SC_SITE("int3") : SC_SITE_OPS : : "r11", "memory");
	expect(&(struct want){"trap.int3", SIGTRAP, SC_SI_KERNEL, 0, sc_site_resume, 3, 0});
	/* The two-byte form goes through the same gate. */
	sc_reset();
	__asm__ volatile(SC_SITE(".byte 0xcd, 0x03") : SC_SITE_OPS : : "r11", "memory");
	expect(&(struct want){"trap.int_3_long_form", SIGTRAP, SC_SI_KERNEL, 0, sc_site_resume, 3,
			      0});
	sc_default(SIGTRAP);
}

static void clear_tf(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_record(sig, si, ctx);
	uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)X86_TF;
}

/*
 * POPF sets TF: the trap comes after the one instruction that follows it,
 * with RIP past that instruction; the handler clears TF so there is one trap.
 */
static void trap_tf(void)
{
	uintptr_t after1;

	sc_reset();
	sc_install(SIGTRAP, clear_tf, 0);
	/* Below the red zone: PUSHFQ writes under RSP. */
	__asm__ volatile("leaq	1f(%%rip), %[a1]\n\t"
			 "subq	$128, %%rsp\n\t"
			 "pushfq\n\t"
			 "orq	$0x100, (%%rsp)\n\t"
			 "popfq\n\t"
			 "nop\n"
			 "1:\tnop\n\t"
			 "nop\n\t"
			 "addq	$128, %%rsp"
			 : [a1] "=&r"(after1)
			 :
			 : "memory", "cc");
	expect(&(struct want){"trap.tf_single_step", SIGTRAP, TRAP_TRACE, after1, after1, 1, 0});
	el_expect("trap.tf_in_frame_flags", (sc_seen.gregs[REG_EFL] & X86_TF) != 0,
		  "the trapped context's RFLAGS %#llx lack TF",
		  (unsigned long long)sc_seen.gregs[REG_EFL]);
	sc_default(SIGTRAP);
}

void sc_sync(void)
{
	gp_noncanonical();
	gp_privileged();
	gp_int_n();
	ill_ud2();
	fpe_divide();
	trap_int3();
	trap_tf();
}
