/*
 * A guest that goes wrong is reported as such: each way with its own
 * status and exit code, and the reason named.  Bad input is refused before
 * anything boots.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(failures, .timeout = 600);

static void expect_failure(const char *crash, int code, const char *status, const char *needle)
{
	struct el_proc p;
	const char *out = tmp_output("fail.jsonl");
	char append[64];
	struct json_object *rec;

	snprintf(append, sizeof(append), "test.crash=%s", crash);
	entrylab(&p, "run", "--append", append, "--timeout", "5", "-o", out, NULL);
	cr_expect_eq(p.status, code, "%s: want exit %d, got %d", crash, code, p.status);
	rec = last_record(out);
	cr_assert(rec, "%s: no record written", crash);
	cr_expect_str_eq(jstr(rec, "status"), status);
	cr_expect(jstr(rec, "detail") && strstr(jstr(rec, "detail"), needle),
		  "%s: detail '%s' does not mention '%s'", crash, jstr(rec, "detail"), needle);
	cr_expect(jget(rec, "guest.exit_status") == NULL, "no exit status for a failed guest");
	json_object_put(rec);
	proc_free(&p);
}

Test(failures, triple_fault)
{
	expect_failure("triple", 122, "guest-crash", "triple fault");
}

/*
 * Each is the guest's doing, so guest-crash whatever this KVM makes of it
 * (an exception, a triple fault, an emulation failure): never vmm-error.
 */
static void expect_guest_crash(const char *crash, const char *const needles[])
{
	struct el_proc p;
	const char *out = tmp_output("guest-crash.jsonl");
	char append[64];
	struct json_object *rec;
	const char *detail;
	bool named = false;

	snprintf(append, sizeof(append), "test.crash=%s", crash);
	entrylab(&p, "run", "--append", append, "--timeout", "30", "-o", out, NULL);
	cr_expect_eq(p.status, 122, "%s: want exit 122, got %d: %s", crash, p.status, p.err);
	rec = last_record(out);
	cr_assert(rec, "%s: no record written", crash);
	cr_expect_str_eq(jstr(rec, "status"), "guest-crash");
	detail = jstr(rec, "detail");
	for (unsigned i = 0; needles[i] && detail; i++)
		named |= strstr(detail, needles[i]) != NULL;
	cr_expect(named, "%s: detail '%s' names neither the exception nor the exit", crash,
		  detail);
	json_object_put(rec);
	proc_free(&p);
}

Test(failures, sysenter_msr_zero_is_guest_crash)
{
	expect_guest_crash("sysenter", (const char *const[]){"SYSENTER", "vector 13", "vector 6",
							      "KVM_EXIT_SHUTDOWN", NULL});
}

Test(failures, icebp_is_guest_crash)
{
	expect_guest_crash("icebp", (const char *const[]){"vector 1", "vector 6", "ICEBP",
							   "KVM_EXIT_SHUTDOWN", NULL});
}

Test(failures, int_through_garbage_idt_is_guest_crash)
{
	expect_guest_crash("badidt", (const char *const[]){"KVM_EXIT_SHUTDOWN", "delivering",
							    "vector", NULL});
}

Test(failures, jump_into_mmio_is_guest_crash)
{
	expect_guest_crash("mmio-exec", (const char *const[]){"emulation failure", "vector 14",
							       "KVM_EXIT_SHUTDOWN", NULL});
}

/* Reports that are well-formed but inconsistent: guest-bad-io naming the field. */
Test(failures, report_region_backwards)
{
	expect_failure("report-backwards", 123, "guest-bad-io",
		       "RUN report: region.tsc_end 5 < tsc_begin 9");
}

Test(failures, report_region_without_markers)
{
	expect_failure("report-unmarked", 123, "guest-bad-io", "saw no EL_HC_REGION_BEGIN");
}

Test(failures, report_boot_twice)
{
	expect_failure("report-boot-twice", 123, "guest-bad-io", "BOOT report sent twice");
}

Test(failures, hang_times_out)
{
	expect_failure("hang", 124, "timeout", "5");
}

Test(failures, kernel_exception)
{
	expect_failure("ud", 122, "guest-crash", "vector 6");
}

Test(failures, unknown_port)
{
	expect_failure("badport", 123, "guest-bad-io", "0x1234");
}

Test(failures, bad_knob_refused_before_boot)
{
	struct el_proc p;

	entrylab(&p, "run", "--append", "pti=maybe", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "pti") && strstr(p.err, "off") && strstr(p.err, "on"),
		  "message must name the knob and its values: %s", p.err);
	proc_free(&p);

	entrylab(&p, "run", "--append", "ptii=on", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "ptii"), "message must name the unknown knob: %s", p.err);
	proc_free(&p);
}

Test(failures, bad_cpu_spec_refused)
{
	struct el_proc p;

	entrylab(&p, "run", "--cpu", "host,+nosuchfeature", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "nosuchfeature"), "message must name the feature: %s", p.err);
	proc_free(&p);
}

Test(failures, bad_memory_refused)
{
	struct el_proc p;

	entrylab(&p, "run", "-m", "12Q", NULL);
	cr_expect_eq(p.status, 120);
	cr_expect(strstr(p.err, "--memory"), "%s", p.err);
	proc_free(&p);
}
