/*
 * Static i386 programs (gcc -m32 -static, glibc) as compat
 * processes on our kernel, under every entry variant (pti off/on x
 * entry.ret iret/sysret x entry.irq_return direct/trampoline):
 *   hello32    the smallest: glibc's start-up, one line, exit 0;
 *   i386check  compatibility mode, the initial stack and auxv, uname,
 *              memory below 4 GiB, TLS through set_thread_area and %gs,
 *              handlers on 32-bit frames with sigreturn and rt_sigreturn,
 *              fork and wait (it passes on Linux 6.1 with IA32 emulation:
 *              `entrylab run --guest linux --exec build/guest/i386check`).
 * Every run must exit 0 with guest.unknown_syscalls 0 and the
 * configuration it asked for.  The programs exist only where the host's
 * gcc links -m32 -static (gcc-multilib); elsewhere each test skips saying so.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest_run.h"
#include "harness.h"

TestSuite(i386, .timeout = 900);

/* Criterion copies parameters into a re-executed child: no pointers in them. */
struct i386_run {
	char prog[16], want[48];
	char pti[4], ret[8], irq[12];
};

static void run_i386(const struct i386_run *r)
{
	guest_run_checked(&(struct guest_run){
		.prog = r->prog, .pti = r->pti, .ret = r->ret, .irq = r->irq, .want = r->want,
		.missing = "the host's gcc cannot link -m32 -static (install gcc-multilib, then "
			   "re-run cmake)"});
}

#define ALL8(name, line)                                                                     \
	do {                                                                                 \
		static struct i386_run v[8];                                                 \
		for (int i = 0; i < EL_VARIANTS; i++) {                                                \
			snprintf(v[i].prog, sizeof(v[i].prog), "%s", name);                  \
			snprintf(v[i].want, sizeof(v[i].want), "%s", line);                  \
			snprintf(v[i].pti, sizeof(v[i].pti), "%s", el_variant_pti(i));          \
			snprintf(v[i].ret, sizeof(v[i].ret), "%s", el_variant_ret(i));          \
			snprintf(v[i].irq, sizeof(v[i].irq), "%s", el_variant_irq(i));          \
		}                                                                            \
		return cr_make_param_array(struct i386_run, v, 8);                           \
	} while (0)

/* A static i386 hello runs on our kernel under all 8 variants. */
ParameterizedTestParameters(i386, hello32)
{
	ALL8("hello32", "hello from i386");
}
ParameterizedTest(struct i386_run *r, i386, hello32, .timeout = 300)
{
	run_i386(r);
}

/* The richer program (TLS through %gs, 32-bit signal frames, fork), all 8. */
ParameterizedTestParameters(i386, i386check)
{
	ALL8("i386check", "i386check: 22 passed, 0 failed, 0 skipped");
}
ParameterizedTest(struct i386_run *r, i386, i386check, .timeout = 300)
{
	run_i386(r);
}
