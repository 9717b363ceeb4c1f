/*
 * The same guest kernel image boots under QEMU's own PVH loader (TCG):
 * our cross-check and gdb path.  Console on stdio, exit through
 * isa-debug-exit ((status << 1) | 1).
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define KERNEL EL_BINARY_DIR "/guest-kernel/entrylab-kernel"

static void qemu_boot(struct el_proc *p, const char *cpu, const char *append)
{
	const char *const argv[] = {
		"/usr/bin/qemu-system-x86_64", "-accel", "tcg", "-cpu", cpu, "-m", "128M",
		"-kernel", KERNEL, "-append", append, "-display", "none", "-serial", "stdio",
		"-monitor", "none", "-no-reboot", "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
		NULL};

	if (access(argv[0], X_OK))
		cr_skip_test("qemu-system-x86_64 is not installed (harness/bootstrap.sh installs it)");
	proc_run(p, argv);
}

TestSuite(qemu, .timeout = 120);

Test(qemu, pvh_boot)
{
	struct el_proc p;

	qemu_boot(&p, "max", "pti=on");
	cr_expect_eq(p.status, 1, "guest must exit 0 through isa-debug-exit (QEMU status 1), got %d",
		     p.status);
	cr_expect(strstr(p.out, "boot report"), "no boot report on the console:\n%s", p.out);
	cr_expect(strstr(p.out, "cr4"), "boot report lacks CR4:\n%s", p.out);
	proc_free(&p);
}

Test(qemu, pvh_boot_without_pge)
{
	struct el_proc p;

	qemu_boot(&p, "max,-pge", "");
	cr_expect_eq(p.status, 1, "got %d", p.status);
	cr_expect(strstr(p.out, "-pge"), "PGE not reported absent:\n%s", p.out);
	proc_free(&p);
}

Test(qemu, pvh_kernel_exception_exit)
{
	struct el_proc p;

	qemu_boot(&p, "max", "test.crash=ud");
	/* EL_PORT_EXIT_PANIC + 6 = 0x106 -> QEMU exits ((0x106 << 1) | 1) & 0xff = 0x0d. */
	cr_expect_eq(p.status, 0x0d, "got %d", p.status);
	cr_expect(strstr(p.out, "#UD"), "exception not named:\n%s", p.out);
	proc_free(&p);
}
