/*
 * archcheck io: ioperm and iopl.  Port 0x3fd (COM1's line status register:
 * harmless to read, and a port the entrylab VMM answers; reading a port no
 * device claims would end its run).
 *   - without permission IN faults: SIGSEGV SI_KERNEL;
 *   - ioperm(0x3fd, 1, 1): IN works, and a forked child inherits it;
 *     ioperm(..., 0) takes it away again; a range past 0xffff is EINVAL;
 *   - CLI faults; iopl(3): IN works, and CLI is skipped like a NOP with IF
 *     still set (Linux gives iopl(3) the whole I/O bitmap, never IOPL 3 in
 *     RFLAGS, and since 5.15 (and 5.10.81) steps over a CLI/STI whose #GP it
 *     sees instead of sending a signal); iopl(4) is EINVAL; iopl(0) drops it.
 * Where the kernel refuses (see refused()) the checks that need it skip.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/io.h>
#include <sys/wait.h>
#include <unistd.h>

#include "archcheck.h"
#include "lib/region.h"

#define PORT 0x3fd

/* 1 when IN from PORT ran without a fault. */
static int try_in(void)
{
	unsigned char v = 0;

	ac_catch_segv();
	__asm__ volatile(AC_SITE("inb	%w[port], %[v]")
			 : AC_SITE_OPS, [v] "+a"(v)
			 : [port] "Nd"((unsigned short)PORT)
			 : "r11", "memory");
	ac_default_segv();
	return ac_faults == 0;
}

/* Runs CLI; *if_after is RFLAGS.IF right after it.  1 when CLI did not fault. */
static int try_cli(int *if_after)
{
	uint64_t flags = 0;

	ac_catch_segv();
	/* Below the red zone: PUSHFQ writes under RSP. */
	__asm__ volatile("subq	$128, %%rsp\n\t" AC_SITE("cli") "pushfq\n\t"
			 "popq	%[f]\n\t"
			 "addq	$128, %%rsp"
			 : AC_SITE_OPS, [f] "=r"(flags)
			 :
			 : "r11", "memory");
	ac_default_segv();
	*if_after = (flags & 0x200) != 0;
	if (!*if_after)
		__asm__ volatile("sti"); /* a real IOPL 3: interrupts back on */
	return ac_faults == 0;
}

/*
 * EPERM (no CAP_SYS_RAWIO, e.g. a container) and, on a Linux host, ENOSYS (a
 * kernel built without CONFIG_X86_IOPL_IOPERM) skip; under entrylab ENOSYS is
 * a failure: the issue asks for both calls.
 */
static int refused(const char *name, const char *call)
{
	if (errno == EPERM) {
		el_skip(name, "%s: EPERM (no CAP_SYS_RAWIO here)", call);
		return 1;
	}
	if (errno == ENOSYS && !el_entrylab()) {
		el_skip(name, "%s: ENOSYS (this host kernel has no CONFIG_X86_IOPL_IOPERM)", call);
		return 1;
	}
	return 0;
}

/* Each probe runs before its verdict: the arguments of el_expect are evaluated in no set order. */
static void with_ioperm(void)
{
	pid_t pid;
	int st = -1, r, ran, e;

	ran = try_in();
	el_expect("io.in_without_permission_faults", !ran && ac_fault_code == 0x80,
		  "IN from %#x without permission: %d faults, si_code %#x", PORT, ac_faults,
		  ac_fault_code);
	r = ioperm(PORT, 1, 1);
	e = errno;
	if (r && refused("io.ioperm", "ioperm"))
		return;
	ran = try_in();
	el_expect("io.ioperm_grants", r == 0 && ran, "ioperm %d (%s), IN %s", r, strerror(e),
		  ran ? "ran" : "faulted");
	pid = fork();
	if (pid == 0)
		_exit(try_in() ? 0 : 1);
	waitpid(pid, &st, 0);
	el_expect("io.ioperm_inherited_by_fork", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "child status %#x (1: IN faulted)", st);
	ioperm(PORT, 1, 0);
	ran = try_in();
	el_expect("io.ioperm_revoked", !ran, "IN still allowed after ioperm(..., 0)");
	r = ioperm(0xffff, 2, 1);
	e = errno;
	el_expect("io.ioperm_range_einval", r == -1 && e == EINVAL, "ioperm(0xffff, 2): %d (%s)",
		  r, strerror(e));
}

static void with_iopl(void)
{
	int r, e, ran, if_after;

	ran = try_cli(&if_after);
	el_expect("io.cli_without_iopl_faults", !ran && ac_fault_code == 0x80,
		  "CLI in user mode: %d faults, si_code %#x", ac_faults, ac_fault_code);
	r = iopl(3);
	e = errno;
	if (r && refused("io.iopl", "iopl(3)"))
		return;
	ran = try_in();
	if (!el_expect("io.iopl3_grants_ports", r == 0 && ran, "iopl %d (%s), IN %s", r,
		       strerror(e), ran ? "ran" : "faulted"))
		return;
	ran = try_cli(&if_after);
	el_expect("io.iopl3_cli_is_a_nop", ran && if_after,
		  "CLI under iopl(3): %s, IF after it %d (Linux steps over it: no signal, IF stays 1)",
		  ran ? "ran" : "faulted", if_after);
	iopl(0);
	ran = try_in();
	el_expect("io.iopl0_revokes", !ran, "IN still allowed after iopl(0)");
	r = iopl(4);
	e = errno;
	el_expect("io.iopl4_einval", r == -1 && e == EINVAL, "iopl(4): %d (%s)", r, strerror(e));
}

void ac_io(void)
{
	with_ioperm();
	with_iopl();
}
