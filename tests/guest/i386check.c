/*
 * i386check: what an i386 program (gcc -m32 -static, glibc) needs of a
 * 64-bit kernel's compat ABI, as Linux gives it: the initial stack and
 * auxv, compatibility mode (CS = USER32_CS), uname, memory below 4 GiB,
 * TLS in the GDT through set_thread_area/get_thread_area and %gs, signal
 * handlers on 32-bit frames with sigreturn and rt_sigreturn, fork and wait.
 * PASS/FAIL/SKIP lines (check.h); exit 0 when nothing failed.  It checks
 * Linux's behaviour: it passes on Linux with IA32 emulation
 * (`entrylab run --guest linux --exec`) and must pass on our kernel under
 * every entry variant (tests/kvm/test_i386.c).
 */
#define _GNU_SOURCE
#include <asm/ldt.h>
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define USER32_CS 0x23
#define USER_DS 0x2b
#define GDT_ENTRY_TLS_MIN 12
#define GDT_ENTRY_TLS_MAX 14

static uint16_t read_cs(void)
{
	uint16_t v;

	__asm__ volatile("mov %%cs, %0" : "=r"(v));
	return v;
}

static uint16_t read_gs(void)
{
	uint16_t v;

	__asm__ volatile("mov %%gs, %0" : "=r"(v));
	return v;
}

static void check_start(void)
{
	struct utsname u;

	el_expect("cs_is_user32_cs", read_cs() == USER32_CS, "cs 0x%x, want 0x%x", read_cs(),
		  USER32_CS);
	el_expect("at_phent", getauxval(AT_PHENT) == sizeof(Elf32_Phdr), "AT_PHENT %lu",
		  getauxval(AT_PHENT));
	el_expect("at_platform", getauxval(AT_PLATFORM) &&
		  !strcmp((const char *)getauxval(AT_PLATFORM), "i686"), "AT_PLATFORM %s",
		  getauxval(AT_PLATFORM) ? (const char *)getauxval(AT_PLATFORM) : "(none)");
	el_expect("at_random", getauxval(AT_RANDOM) != 0, "no AT_RANDOM");
	/* Linux maps its vdso32 and names __kernel_vsyscall; glibc calls through it. */
	el_expect("at_sysinfo", getauxval(AT_SYSINFO) != 0, "no AT_SYSINFO");
	el_expect("at_pagesz", getauxval(AT_PAGESZ) == 4096, "AT_PAGESZ %lu", getauxval(AT_PAGESZ));
	/* A 64-bit kernel says so, PER_LINUX32 aside (a plain exec does not set it). */
	el_expect("uname_machine", uname(&u) == 0 && !strcmp(u.machine, "x86_64"), "machine %s",
		  u.machine);
}

static void check_memory(void)
{
	void *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *hi = mmap((void *)0xfffff000u, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
			MAP_FIXED, -1, 0);
	void *b0 = sbrk(0), *b1 = sbrk(1 << 20);

	el_expect("mmap", p != MAP_FAILED && ((char *)p)[12345] == 0, "mmap failed");
	if (p != MAP_FAILED)
		munmap(p, 1 << 20);
	/* The last page is above TASK_SIZE (0xffffe000): ENOMEM, as on Linux. */
	el_expect("mmap_above_task_size", hi == MAP_FAILED, "mapped at %p", hi);
	el_expect("brk", b1 == b0 && b0 != (void *)-1 && (memset(b1, 1, 1 << 20), sbrk(0) > b0),
		  "sbrk %p -> %p", b0, b1);
}

static __thread int tls_var = 42;

static void check_tls(void)
{
	struct user_desc d = {.entry_number = (unsigned)-1, .base_addr = 0, .limit = 0xfffff,
			      .seg_32bit = 1, .limit_in_pages = 1, .useable = 1};
	struct user_desc g;
	static uint32_t word = 0x5a5aa5a5;
	uint16_t gs = read_gs();
	uint32_t via_fs = 0;
	long r;

	el_expect("tls_variable", tls_var == 42, "tls_var %d", tls_var);
	tls_var = 7;
	el_expect("gs_is_a_gdt_tls_entry",
		  (gs & 7) == 3 && gs >> 3 >= GDT_ENTRY_TLS_MIN && gs >> 3 <= GDT_ENTRY_TLS_MAX,
		  "gs 0x%x", gs);
	memset(&g, 0, sizeof(g));
	g.entry_number = gs >> 3;
	r = syscall(SYS_get_thread_area, &g);
	el_expect("get_thread_area", r == 0 && g.base_addr != 0 && g.seg_32bit && g.useable,
		  "r %ld base 0x%x", r, g.base_addr);
	d.base_addr = (uint32_t)(uintptr_t)&word;
	r = syscall(SYS_set_thread_area, &d);
	el_expect("set_thread_area_picks_free", r == 0 && d.entry_number != (gs >> 3) &&
		  d.entry_number >= GDT_ENTRY_TLS_MIN && d.entry_number <= GDT_ENTRY_TLS_MAX,
		  "r %ld entry %u", r, d.entry_number);
	if (r == 0) {
		__asm__ volatile("mov %1, %%fs\n\tmovl %%fs:0, %0\n\tmov %2, %%fs"
				 : "=r"(via_fs)
				 : "r"((uint16_t)(d.entry_number * 8 + 3)), "r"((uint16_t)0));
		el_expect("tls_entry_loads", via_fs == word, "read 0x%x via fs", via_fs);
	}
	d.entry_number = 3; /* not a TLS entry */
	errno = 0;
	el_expect("set_thread_area_einval", syscall(SYS_set_thread_area, &d) == -1 &&
		  errno == EINVAL, "errno %d", errno);
	el_expect("set_thread_area_efault", syscall(SYS_set_thread_area, (void *)8) == -1 &&
		  errno == EFAULT, "errno %d", errno);
}

static volatile int got_sig, got_info_code;
static volatile uint16_t handler_cs;
static volatile uint32_t handler_eax_check;

static void on_usr1(int sig)
{
	got_sig = sig;
	handler_cs = read_cs();
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_info_code = si->si_code;
	handler_cs = read_cs();
}

static void check_signals(void)
{
	struct sigaction sa;
	sigset_t mask;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	/* Without SA_SIGINFO glibc gives a restorer calling sigreturn: the old sigframe. */
	el_expect("sigaction", sigaction(SIGUSR1, &sa, 0) == 0, "sigaction failed");
	raise(SIGUSR1);
	el_expect("handler_ran_in_32bit", got_sig == SIGUSR1 && handler_cs == USER32_CS,
		  "sig %d cs 0x%x", got_sig, handler_cs);
	got_sig = 0;
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, 0);
	kill(getpid(), SIGUSR2);
	el_expect("siginfo_handler", got_sig == SIGUSR2 && got_info_code == SI_USER,
		  "sig %d code %d", got_sig, got_info_code);
	sigprocmask(SIG_BLOCK, 0, &mask);
	el_expect("mask_restored", !sigismember(&mask, SIGUSR1) && !sigismember(&mask, SIGUSR2),
		  "a handler's mask stayed blocked");
}

static void check_fork(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		_exit(tls_var == 7 && read_cs() == USER32_CS ? 7 : 1);
	el_expect("fork_wait", pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		  WEXITSTATUS(status) == 7, "pid %d status 0x%x", pid, status);
}

int main(void)
{
	check_start();
	check_memory();
	check_tls();
	check_signals();
	check_fork();
	return el_summary("i386check");
}
