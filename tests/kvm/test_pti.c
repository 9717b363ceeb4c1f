/*
 * Page-table isolation, PCID, global pages and the SYSRET return
 * beyond the knob matrix of test_variants.c: the PCID set-up where the
 * host offers PCID (skipped with the reason elsewhere: TCG has none, so the
 * nested runner has none; tests/unit/test_pcid.c covers the logic), the
 * SYSRET fallback when the user stack cannot take the saved registers, a
 * single-step trap through the paranoid (IST) entry under PTI, kernel
 * memory out of user reach, and what the record says when a variant is
 * impossible.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(pti, .timeout = 300);

/* Runs a test program with the knobs; returns its record (caller puts it) and exit status. */
static struct json_object *run_exec(const char *append, const char *prog, const char *arg,
				    const char *out, int *status)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", append, "-o", tmp_output(out),
			      "--exec", prog, arg, NULL};
	struct el_proc p;
	struct json_object *rec;

	proc_run(&p, argv);
	*status = p.status;
	if (p.status != 0)
		cr_log_info("[%s] %s %s: exit %d\n%s%s", append, prog, arg, p.status, p.out, p.err);
	proc_free(&p);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] no record", append);
	return rec;
}

Test(pti, pcid_and_invpcid_where_the_host_has_them)
{
	const char *out = tmp_output("pcid.jsonl");
	struct json_object *rec;
	struct el_proc p;

	entrylab(&p, "run", "--cpu", "host,+pcid,+invpcid", "--append", "pti=on", "-o", out,
		 "--exec", GUEST_BIN "regcheck", "-n", "50", NULL);
	if (p.status == 121) {
		proc_free(&p);
		cr_skip_test("this host's vCPU offers no PCID/INVPCID (QEMU TCG and the nested "
			     "runner never do): PCID paths are covered by the unit tests "
			     "(test_pcid.c)");
	}
	cr_expect_eq(p.status, 0, "regcheck with PCID: exit %d\n%s%s", p.status, p.out, p.err);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "guest.config.pcid"), "on");
	cr_expect_str_eq(jstr(rec, "guest.config.invpcid"), "on");
	cr_expect(json_object_get_boolean(jget(rec, "guest.selfcheck.passed")));
	json_object_put(rec);
	proc_free(&p);

	entrylab(&p, "run", "--cpu", "host,+pcid,+invpcid", "--append", "pti=on noinvpcid", "-o",
		 out, "pagefault", "256K", NULL);
	cr_expect_eq(p.status, 0, "pagefault with deferred user flushes: exit %d", p.status);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "guest.config.invpcid"), "off");
	json_object_put(rec);
	proc_free(&p);
}

Test(pti, pcid_off_without_pti)
{
	int status;
	struct json_object *rec = run_exec("pti=off", GUEST_BIN "entrycheck", "sysret-fallback",
					   "nopti.jsonl", &status);

	cr_expect_str_eq(jstr(rec, "guest.config.pcid"), "off", "PCIDs serve PTI only");
	cr_expect_str_eq(jstr(rec, "guest.config.global"), "all", "no PTI: all pages global");
	json_object_put(rec);
}

Test(pti, sysret_falls_back_to_iret)
{
	static const char *const appends[] = {
		"pti=off entry.ret=sysret", "pti=on entry.ret=sysret",
		"pti=on entry.ret=sysret entry.irq_return=trampoline",
		"pti=off entry.ret=sysret entry.irq_return=trampoline",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(appends); i++) {
		int status;
		struct json_object *rec = run_exec(appends[i], GUEST_BIN "entrycheck",
						   "sysret-fallback", "fallback.jsonl", &status);

		cr_expect_eq(status, 0, "[%s] registers changed across a fault", appends[i]);
		cr_expect_str_eq(jstr(rec, "guest.config.ret"), "sysret", "[%s]", appends[i]);
		json_object_put(rec);
	}
}

Test(pti, single_step_through_the_paranoid_entry)
{
	int status;
	struct json_object *rec = run_exec("pti=on entry.ret=sysret", GUEST_BIN "entrycheck",
					   "single-step", "tf.jsonl", &status);

	cr_expect_eq(status, 133, "TF must end the process with SIGTRAP (133), got %d", status);
	json_object_put(rec);
}

Test(pti, kernel_memory_is_out_of_reach)
{
	int status;
	struct json_object *rec = run_exec("pti=on pti.global=all", GUEST_BIN "segv", "kernel",
					   "kernel.jsonl", &status);

	cr_expect_eq(status, 139, "reading kernel text under PTI: want SIGSEGV (139), got %d",
		     status);
	cr_expect_str_eq(jstr(rec, "guest.config.global"), "all");
	cr_expect_str_eq(jstr(rec, "guest.selfcheck.checks.pti_user_map"), "passed");
	cr_expect_str_eq(jstr(rec, "guest.selfcheck.checks.pti_kernel_nx"), "passed");
	json_object_put(rec);
}

Test(pti, sysret_without_vdso_is_unavailable)
{
	int status;
	struct json_object *rec = run_exec("vdso=off entry.ret=sysret", GUEST_BIN "regcheck", "-n1",
					   "novdso.jsonl", &status);

	cr_expect_eq(status, 0);
	cr_expect_str_eq(jstr(rec, "guest.config.ret"), "unavailable",
			 "the trampoline lives in the vDSO");
	json_object_put(rec);
}

Test(pti, global_pages_need_pge)
{
	const char *out = tmp_output("nopge.jsonl");
	struct json_object *rec;
	struct el_proc p;

	entrylab(&p, "run", "--cpu", "host,-pge", "--append", "pti=on pti.global=entry", "-o", out,
		 "getpid", "100", NULL);
	cr_expect_eq(p.status, 0, "%s", p.err);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "guest.config.global"), "unavailable");
	cr_expect(json_object_get_boolean(jget(rec, "guest.selfcheck.passed")));
	json_object_put(rec);
	proc_free(&p);
}
