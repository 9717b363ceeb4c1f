/*
 * sigcheck segv: SIGSEGV from a page fault reaches an SA_SIGINFO handler
 * with Linux's si_code, si_addr, trapno, err and cr2; the handler repairs the
 * context (skips the instruction, edits a register, or maps the page) and
 * the program resumes.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "sigcheck.h"

#define PAGE 4096ul

/* Page-fault error code bits (the sigcontext's err). */
#define PF_PROT 1ul
#define PF_WRITE 2ul
#define PF_USER 4ul

static void *page_unmapped(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		munmap(p, PAGE);
	return p;
}

/* Checks what every page-fault SIGSEGV must carry. */
static void expect_pf(const char *name, void *addr, int code, unsigned long err_bits)
{
	const struct sc_seen *s = &sc_seen;
	unsigned long err = (unsigned long)s->gregs[REG_ERR];

	el_expect(name,
		  s->count == 1 && s->signo == SIGSEGV && s->si.si_signo == SIGSEGV &&
			  s->si.si_code == code && s->si.si_addr == addr &&
			  (uintptr_t)s->gregs[REG_RIP] == sc_site_at && s->gregs[REG_TRAPNO] == 14 &&
			  (err & (PF_PROT | PF_WRITE | PF_USER)) == err_bits &&
			  (uintptr_t)s->gregs[REG_CR2] == (uintptr_t)addr,
		  "count %d signo %d si_code %d (want %d) si_addr %p (want %p) rip %#llx (want "
		  "%#lx) trapno %lld err %#lx (want bits %#lx) cr2 %#llx",
		  s->count, s->si.si_signo, s->si.si_code, code, s->si.si_addr, addr,
		  (unsigned long long)s->gregs[REG_RIP], (unsigned long)sc_site_at,
		  (long long)s->gregs[REG_TRAPNO], err, err_bits,
		  (unsigned long long)s->gregs[REG_CR2]);
}

/* The handler skips the store and sets RAX: the resumed code must see it. */
static void skip_and_set_rax(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	sc_skip_handler(sig, si, ctx);
	uc->uc_mcontext.gregs[REG_RAX] = 0x5eed;
}

static void write_unmapped_skip(void)
{
	void *p = page_unmapped();
	long rax = 0;

	sc_reset();
	sc_install(SIGSEGV, skip_and_set_rax, 0);
	__asm__ volatile(SC_SITE("movq	$1, (%[p])")
			 : SC_SITE_OPS, "+a"(rax)
			 : [p] "r"(p)
			 : "r11", "memory");
	expect_pf("segv.write_unmapped.maperr", p, SEGV_MAPERR, PF_WRITE | PF_USER);
	el_expect("segv.write_unmapped.resumed_with_edited_rax", rax == 0x5eed,
		  "RAX after the handler %#lx, the handler set 0x5eed", rax);
}

static void read_unmapped_skip(void)
{
	void *p = page_unmapped();
	long v = 7;

	sc_reset();
	sc_install(SIGSEGV, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("movq	(%[p]), %[v]")
			 : SC_SITE_OPS, [v] "+r"(v)
			 : [p] "r"(p)
			 : "r11", "memory");
	expect_pf("segv.read_unmapped.maperr", p, SEGV_MAPERR, PF_USER);
	el_expect("segv.read_unmapped.skipped", v == 7, "the skipped load changed its target: %ld",
		  v);
}

static void *accerr_page;

/* Makes the page writable: returning re-runs the store, which now succeeds. */
static void map_writable(int sig, siginfo_t *si, void *ctx)
{
	sc_record(sig, si, ctx);
	mprotect(accerr_page, PAGE, PROT_READ | PROT_WRITE);
}

static void write_readonly_map(void)
{
	volatile long *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	accerr_page = (void *)p;
	(void)p[0]; /* populate: the store then meets a present, read-only PTE */
	sc_reset();
	sc_install(SIGSEGV, map_writable, 0);
	__asm__ volatile(SC_SITE("movq	$0x1234, (%[p])")
			 : SC_SITE_OPS
			 : [p] "r"(p)
			 : "r11", "memory");
	expect_pf("segv.write_readonly.accerr", (void *)p, SEGV_ACCERR,
		  PF_PROT | PF_WRITE | PF_USER);
	el_expect("segv.write_readonly.retried_after_mprotect", p[0] == 0x1234 && sc_seen.count == 1,
		  "value %#lx after the handler made the page writable, %d faults", p[0],
		  sc_seen.count);
	munmap((void *)p, PAGE);
}

/* A call into an unmapped page: the handler pops the return address (RIP and RSP edited). */
static void return_from_call(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;

	sc_record(sig, si, ctx);
	g[REG_RIP] = (greg_t) * (uint64_t *)g[REG_RSP];
	g[REG_RSP] += 8;
}

static void exec_unmapped(void)
{
	void *p = page_unmapped();
	uintptr_t back;

	sc_reset();
	sc_install(SIGSEGV, return_from_call, 0);
	/* Below the red zone: the call must not overwrite what the compiler keeps there. */
	__asm__ volatile("subq	$128, %%rsp\n\t"
			 "call	*%[p]\n"
			 "1:\taddq	$128, %%rsp\n\t"
			 "leaq	1b(%%rip), %[back]"
			 : [back] "=r"(back)
			 : [p] "r"(p)
			 : "memory");
	el_expect("segv.exec_unmapped",
		  sc_seen.count == 1 && sc_seen.si.si_code == SEGV_MAPERR && sc_seen.si.si_addr == p &&
			  (void *)sc_seen.gregs[REG_RIP] == p &&
			  (sc_seen.gregs[REG_ERR] & PF_USER) && sc_seen.gregs[REG_TRAPNO] == 14 &&
			  *(uintptr_t *)sc_seen.gregs[REG_RSP] == back,
		  "count %d si_code %d si_addr %p rip %#llx (want %p) err %#llx trapno %lld",
		  sc_seen.count, sc_seen.si.si_code, sc_seen.si.si_addr,
		  (unsigned long long)sc_seen.gregs[REG_RIP], p,
		  (unsigned long long)sc_seen.gregs[REG_ERR], (long long)sc_seen.gregs[REG_TRAPNO]);
}

/* A user read of a kernel address: a page fault from user mode, SEGV_MAPERR. */
static void read_kernel_address(void)
{
	void *k = (void *)0xffffffff81000000ul;
	long v = 0;

	sc_reset();
	sc_install(SIGSEGV, sc_skip_handler, 0);
	__asm__ volatile(SC_SITE("movq	(%[p]), %[v]")
			 : SC_SITE_OPS, [v] "+r"(v)
			 : [p] "r"(k)
			 : "r11", "memory");
	el_expect("segv.read_kernel_address",
		  sc_seen.count == 1 && sc_seen.si.si_code == SEGV_MAPERR && sc_seen.si.si_addr == k &&
			  (uintptr_t)sc_seen.gregs[REG_RIP] == sc_site_at &&
			  sc_seen.gregs[REG_TRAPNO] == 14,
		  "count %d si_code %d si_addr %p rip %#llx trapno %lld", sc_seen.count,
		  sc_seen.si.si_code, sc_seen.si.si_addr,
		  (unsigned long long)sc_seen.gregs[REG_RIP], (long long)sc_seen.gregs[REG_TRAPNO]);
}

/* Many faults in a row through the same handler: no state leaks between deliveries. */
static void repeated(void)
{
	void *p = page_unmapped();
	int ok = 0;

	sc_install(SIGSEGV, sc_skip_handler, 0);
	for (int i = 0; i < 100; i++) {
		sc_reset();
		__asm__ volatile(SC_SITE("movb	$1, (%[p])")
				 : SC_SITE_OPS
				 : [p] "r"(p)
				 : "r11", "memory");
		ok += sc_seen.count == 1 && sc_seen.si.si_addr == p;
	}
	el_expect("segv.repeated_100", ok == 100, "%d of 100 faults delivered and repaired", ok);
}

void sc_segv(void)
{
	write_unmapped_skip();
	read_unmapped_skip();
	write_readonly_map();
	exec_unmapped();
	read_kernel_address();
	repeated();
	sc_default(SIGSEGV);
}
