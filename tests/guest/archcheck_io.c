/*
 * archcheck io: ioperm and iopl.  Port 0x3fd (COM1's line status register:
 * harmless to read, and a port the entrylab VMM answers; reading a port no
 * device claims would end its run).
 *   - without permission IN faults: SIGSEGV SI_KERNEL;
 *   - ioperm(0x3fd, 1, 1): IN works, and a forked child inherits it;
 *     ioperm(..., 0) takes it away again; a range past 0xffff is EINVAL;
 *   - iopl(3): IN works but CLI still faults (Linux gives iopl(3) the whole
 *     I/O bitmap, never IOPL 3 in RFLAGS); iopl(4) is EINVAL; iopl(0) drops it.
 * Where the kernel refuses (see refused()) the checks that need it skip.
 */
#include <errno.h>
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

static int try_cli(void)
{
	ac_catch_segv();
	__asm__ volatile(AC_SITE("cli") : AC_SITE_OPS : : "r11", "memory");
	ac_default_segv();
	if (ac_faults == 0)
		__asm__ volatile("sti"); /* it ran: interrupts back on */
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

static void with_ioperm(void)
{
	pid_t pid;
	int st = -1, r;

	el_expect("io.in_without_permission_faults", !try_in() && ac_fault_code == 0x80,
		  "IN from %#x without permission: %d faults, si_code %#x", PORT, ac_faults,
		  ac_fault_code);
	r = ioperm(PORT, 1, 1);
	if (r && refused("io.ioperm", "ioperm"))
		return;
	el_expect("io.ioperm_grants", r == 0 && try_in(), "ioperm %d (%s), IN %s", r,
		  strerror(errno), ac_faults ? "faulted" : "ran");
	pid = fork();
	if (pid == 0)
		_exit(try_in() ? 0 : 1);
	waitpid(pid, &st, 0);
	el_expect("io.ioperm_inherited_by_fork", WIFEXITED(st) && WEXITSTATUS(st) == 0,
		  "child status %#x (1: IN faulted)", st);
	ioperm(PORT, 1, 0);
	el_expect("io.ioperm_revoked", !try_in(), "IN still allowed after ioperm(..., 0)");
	r = ioperm(0xffff, 2, 1);
	el_expect("io.ioperm_range_einval", r == -1 && errno == EINVAL, "ioperm(0xffff, 2): %d (%s)",
		  r, strerror(errno));
}

static void with_iopl(void)
{
	int r = iopl(3);

	if (r && refused("io.iopl", "iopl(3)"))
		return;
	if (!el_expect("io.iopl3_grants_ports", r == 0 && try_in(), "iopl %d (%s), IN %s", r,
		       strerror(errno), ac_faults ? "faulted" : "ran"))
		return;
	el_expect("io.iopl3_cli_still_faults", !try_cli(), "CLI ran in user mode under iopl(3)");
	iopl(0);
	el_expect("io.iopl0_revokes", !try_in(), "IN still allowed after iopl(0)");
	r = iopl(4);
	el_expect("io.iopl4_einval", r == -1 && errno == EINVAL, "iopl(4): %d (%s)", r,
		  strerror(errno));
}

void ac_io(void)
{
	with_ioperm();
	with_iopl();
}
