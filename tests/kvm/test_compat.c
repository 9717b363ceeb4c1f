/*
 * The compat (i386) syscall entries under the entry-variant
 * matrix.  compatcheck (tests/guest/compatcheck.c; checked against Linux
 * 6.1 with IA32 emulation under `--guest linux`: this host runs no 32-bit
 * code) does int $0x80 from 64-bit and from 32-bit code (GDT and LDT code
 * segments) and, in a child with the vdso32 mapped, compat SYSCALL (AMD) or
 * SYSENTER (Intel; the other one SKIPs with the vendor), checking every
 * register after each return.  All 8 configurations (pti off/on x entry.ret
 * iret/sysret x entry.irq_return direct/trampoline): every run must exit 0,
 * print no FAIL, pass at least one check, know every system call
 * (guest.unknown_syscalls 0) and run the configuration it asked for.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define COMPATCHECK EL_BINARY_DIR "/guest/compatcheck"

TestSuite(compat, .timeout = 900);

/* Criterion copies parameters into a re-executed child: no pointers in them. */
struct compat_run {
	char pti[4], ret[8], irq[12];
};

ParameterizedTestParameters(compat, compatcheck)
{
	static struct compat_run v[EL_VARIANTS];

	for (int i = 0; i < EL_VARIANTS; i++) {
		snprintf(v[i].pti, sizeof(v[i].pti), "%s", el_variant_pti(i));
		snprintf(v[i].ret, sizeof(v[i].ret), "%s", el_variant_ret(i));
		snprintf(v[i].irq, sizeof(v[i].irq), "%s", el_variant_irq(i));
	}
	return cr_make_param_array(struct compat_run, v, EL_VARIANTS);
}

ParameterizedTest(struct compat_run *r, compat, compatcheck, .timeout = 300)
{
	char append[96], name[64];
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", append, "-o", NULL, "--timeout",
			      "150", "--exec", COMPATCHECK, NULL};
	struct el_proc p;
	struct json_object *rec;
	const char *status;

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s entry.irq_return=%s", r->pti, r->ret,
		 r->irq);
	snprintf(name, sizeof(name), "compat-%s-%s-%s.jsonl", r->pti, r->ret, r->irq);
	argv[5] = tmp_output(name);
	cr_assert(access(COMPATCHECK, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)",
		  COMPATCHECK);
	proc_run(&p, argv);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] no record (exit %d)\n%s%s", append, p.status, p.out, p.err);
	status = jstr(rec, "status");
	cr_expect(status && !strcmp(status, "ok"), "[%s] run status %s\n%s", append,
		  status ? status : "?", p.err);
	cr_expect_eq(p.status, 0, "[%s] exit %d\n%s%s", append, p.status, p.out, p.err);
	cr_expect(strstr(p.out, "PASS: "), "[%s] no PASS line arrived from the guest", append);
	cr_expect(!strstr(p.out, "FAIL"), "[%s] a check failed:\n%s", append, p.out);
	cr_expect(jget(rec, "guest.unknown_syscalls") &&
			  json_object_get_int64(jget(rec, "guest.unknown_syscalls")) == 0,
		  "[%s] guest.unknown_syscalls %s (a system call the kernel does not know)", append,
		  jstr(rec, "guest.unknown_syscalls"));
	cr_expect_str_eq(jstr(rec, "guest.config.pti"), r->pti, "[%s]", append);
	cr_expect_str_eq(jstr(rec, "guest.config.ret"), r->ret, "[%s]", append);
	cr_expect_str_eq(jstr(rec, "guest.config.irq_return"), r->irq, "[%s]", append);
	json_object_put(rec);
	proc_free(&p);
}
