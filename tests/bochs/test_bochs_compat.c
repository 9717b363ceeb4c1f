/*
 * The compat entries under Bochs: SYSENTER, which QEMU's AMD-like CPUs (the nested
 * runner's) raise #UD for in long mode, run on an Intel model
 * (corei7_haswell_4770).  compatcheck (tests/guest/compatcheck.c) maps the
 * vdso32 page and enters through SYSENTER from 32-bit code, checking every
 * register after the landing pad; int $0x80 from 64-bit, GDT and LDT code
 * with it.  Under pti=off and pti=on: the program must pass with only the
 * SYSCALL check skipped (Intel: SYSCALL in compatibility mode is #UD), and
 * fast.sysenter must be among its passes.  Needs only bochs and
 * grub-mkrescue; skipped with the reason otherwise.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define COMPATCHECK EL_BINARY_DIR "/guest/compatcheck"

static void sysenter_run(const char *append)
{
	const char *out = tmp_output("bochs-compat.jsonl");
	const char *argv[] = {EL_ENTRYLAB, "run",   "--engine", "bochs", "--cpu-model",
			      "corei7_haswell_4770", "--append", append, "-o", out,
			      "--exec",    COMPATCHECK, NULL};
	struct el_proc p;
	struct json_object *rec;
	const char *console;

	if (!in_path("bochs") || !in_path("grub-mkrescue"))
		cr_skip_test("bochs or grub-mkrescue is not installed (harness/bootstrap.sh)");
	cr_assert(access(COMPATCHECK, X_OK) == 0, "%s is not built", COMPATCHECK);
	proc_run(&p, argv);
	rec = last_record(out);
	cr_assert(rec, "[%s] no record (exit %d)\n%s", append, p.status, p.err);
	console = jstr(rec, "console");
	cr_expect_eq(p.status, 0, "[%s] exit %d\n%s", append, p.status,
		     console ? console : "(no console)");
	cr_expect_str_eq(jstr(rec, "guest.config.pti"), strstr(append, "pti=on") ? "on" : "off");
	cr_expect(console && strstr(console, "PASS: fast.sysenter.getpid") &&
			  strstr(console, "PASS: fast.sysenter.write"),
		  "[%s] SYSENTER was not checked:\n%s", append, console ? console : "");
	cr_expect(console && !strstr(console, "FAIL"), "[%s] a check failed:\n%s", append,
		  console ? console : "");
	json_object_put(rec);
	proc_free(&p);
}

Test(bochs_compat, sysenter, .timeout = 400)
{
	sysenter_run("pti=off");
}

Test(bochs_compat, sysenter_pti, .timeout = 400)
{
	sysenter_run("pti=on entry.ret=sysret entry.irq_return=trampoline");
}
