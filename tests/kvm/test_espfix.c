/*
 * espfix64: the IRET to a 16-bit stack segment from the LDT
 * leaves the user's RSP[31:16], not the kernel stack's
 * (guest-kernel/arch/x86_64/espfix.h), after a sigreturn to 32-bit and
 * 16-bit code and after the returns from a page fault and from interrupts
 * taken with that SS; a refused IRET from the espfix stack is SIGSEGV
 * #GP(0), as on Linux.  tests/guest/espfixcheck.c checks it (and says what
 * RSP[63:32] are: the espfix window's upper half, 0xffffff00 here; Linux
 * 6.1 showed 0xffffff14, its espfix page randomised per boot).  It runs in
 * all 8 entry variants (pti x entry.ret x entry.irq_return) and, as the
 * reference, under --guest linux.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define ESPFIXCHECK   EL_BINARY_DIR "/guest/espfixcheck"
#define ESPFIX_PASSES 12

TestSuite(espfix, .timeout = 900);

struct variant {
	char pti[4], ret[8], irq[12];
};

/* The INFO lines (the RSP values seen) into the test log. */
static void log_info_lines(const char *who, const char *out)
{
	for (const char *l = strstr(out, "INFO: "); l; l = strstr(l + 1, "INFO: ")) {
		const char *e = strchr(l, '\n');

		cr_log_info("[%s] %.*s", who, (int)(e ? e - l : (long)strlen(l)), l);
	}
}

static void expect_espfixcheck(const char *who, const struct el_proc *p, const char *out)
{
	char want[80];

	snprintf(want, sizeof(want), "espfixcheck: %d passed, 0 failed, 0 skipped", ESPFIX_PASSES);
	cr_expect_eq(p->status, 0, "[%s] entrylab exit %d\n%s\n%s", who, p->status, out, p->err);
	cr_expect(strstr(out, want), "[%s] want \"%s\":\n%s", who, want, out);
	cr_expect(!strstr(out, "FAIL:"), "[%s]\n%s", who, out);
	log_info_lines(who, out);
}

ParameterizedTestParameters(espfix, variants)
{
	static struct variant v[8];

	for (int i = 0; i < 8; i++) {
		snprintf(v[i].pti, sizeof(v[i].pti), "%s", el_variant_pti(i));
		snprintf(v[i].ret, sizeof(v[i].ret), "%s", el_variant_ret(i));
		snprintf(v[i].irq, sizeof(v[i].irq), "%s", el_variant_irq(i));
	}
	return cr_make_param_array(struct variant, v, 8);
}

/* RSP[31:16] as asked after every kind of return, in each entry variant. */
ParameterizedTest(struct variant *v, espfix, variants, .timeout = 300)
{
	char append[96], name[96];
	const char *out;
	struct el_proc p;
	struct json_object *rec;

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s entry.irq_return=%s", v->pti, v->ret,
		 v->irq);
	snprintf(name, sizeof(name), "espfix-%s-%s-%s.jsonl", v->pti, v->ret, v->irq);
	out = tmp_output(name);
	cr_assert(access(ESPFIXCHECK, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)",
		  ESPFIXCHECK);
	entrylab(&p, "run", "--append", append, "--timeout", "150", "-o", out, "--exec",
		 ESPFIXCHECK, NULL);
	rec = last_record(out);
	cr_assert(rec, "[%s] no record (exit %d)\n%s%s", append, p.status, p.out, p.err);
	if (jstr(rec, "status") && !strcmp(jstr(rec, "status"), "unsupported"))
		cr_skip_test("[%s] the vCPU cannot run this configuration: %s", append,
			     jstr(rec, "detail") ? jstr(rec, "detail") : "(no detail)");
	expect_espfixcheck(append, &p, p.out);
	cr_expect(jstr(rec, "guest.config.pti") && !strcmp(jstr(rec, "guest.config.pti"), v->pti),
		  "[%s] ran with pti=%s", append, jstr(rec, "guest.config.pti"));
	cr_expect(jstr(rec, "guest.config.ret") && !strcmp(jstr(rec, "guest.config.ret"), v->ret),
		  "[%s] ran with entry.ret=%s", append, jstr(rec, "guest.config.ret"));
	cr_expect(jstr(rec, "guest.config.irq_return") &&
			  !strcmp(jstr(rec, "guest.config.irq_return"), v->irq),
		  "[%s] ran with entry.irq_return=%s", append, jstr(rec, "guest.config.irq_return"));
	json_object_put(rec);
	proc_free(&p);
}

/* The reference: the same program under Linux on the same vCPU passes the same checks. */
Test(espfix, linux_reference, .timeout = 300)
{
	const char *out = tmp_output("espfix-linux.jsonl");
	struct el_proc p;
	struct json_object *rec;

	entrylab(&p, "run", "--guest", "linux", "--timeout", "150", "-o", out, "--exec",
		 ESPFIXCHECK, NULL);
	rec = last_record(out);
	cr_assert(rec, "[linux] no record (exit %d)\n%s%s", p.status, p.out, p.err);
	/* Under Linux the program's output is the guest console, kept in the record. */
	expect_espfixcheck("linux", &p, jstr(rec, "console") ? jstr(rec, "console") : "");
	json_object_put(rec);
	proc_free(&p);
}
