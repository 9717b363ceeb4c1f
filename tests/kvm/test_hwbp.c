/*
 * Hardware breakpoints: tests/guest/hwbpcheck (ptrace's DR0-DR7
 * with Linux's checks, a write watchpoint, an execute breakpoint, a
 * watchpoint the kernel's copy hits, a child of the tracee without them,
 * exec dropping them, and MOV SS from a watched selector before SYSCALL,
 * INT3, INT $0x80 and INT $0x41) in each of the 8 entry variants: pti
 * off/on x entry.ret iret/sysret x entry.irq_return direct/trampoline.  The
 * program passes on a Linux host (its trap checks skip, with the reason,
 * where the host's CPU raises no #DB for guest breakpoints, as on this one).
 * Here every check must pass and the run must be the configuration asked
 * for; the only SKIPs allowed are the MOV SS ones that say the vCPU
 * delivered the #DB right after the MOV SS instead of holding it in the
 * MOV SS shadow (QEMU TCG, beneath the nested runner, does: its data
 * breakpoints trap after the access whatever the shadow): the Bochs tier
 * (tests/bochs/test_bochs_hwbp.c) runs those on a CPU model that holds it.
 * 8 boots.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define HWBPCHECK EL_BINARY_DIR "/guest/hwbpcheck"
#define HWBP_CHECKS 31 /* hwbpcheck's PASS and SKIP lines together */

TestSuite(hwbp, .timeout = 900);

/* The record keys of the three knobs, and how --append names them. */
static const char *const knobs[3][2] = {
	{"guest.config.pti", "pti="},
	{"guest.config.ret", "entry.ret="},
	{"guest.config.irq_return", "entry.irq_return="},
};

/* Criterion copies parameters into a re-executed child: no pointers. */
struct hwbp_run {
	char append[64];
};

ParameterizedTestParameters(hwbp, matrix)
{
	static struct hwbp_run v[8];

	for (int i = 0; i < 8; i++)
		el_variant_append(i, v[i].append, sizeof(v[i].append));
	return cr_make_param_array(struct hwbp_run, v, 8);
}

ParameterizedTest(struct hwbp_run *r, hwbp, matrix, .timeout = 300)
{
	char out[96], line[256];
	unsigned passed = 0, failed = 1, skipped = 0, shadow = 0;
	const char *sum;
	const char *cons;
	unsigned long kernel = 0;
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", r->append, "-o", NULL,
			      "--timeout", "150", "--exec", HWBPCHECK, NULL};
	struct el_proc p;
	struct json_object *rec;
	const char *status;

	cr_assert(access(HWBPCHECK, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)", HWBPCHECK);
	snprintf(out, sizeof(out), "hwbp-%.60s.jsonl", r->append);
	for (char *c = out; *c; c++)
		if (*c == ' ' || *c == '=')
			*c = '-';
	argv[5] = tmp_output(out);
	proc_run(&p, argv);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] no record (exit %d)\n%s%s", r->append, p.status, p.out, p.err);
	status = jstr(rec, "status");
	if (status && !strcmp(status, "unsupported"))
		cr_skip_test("[%s] the vCPU cannot run this configuration: %s", r->append,
			     jstr(rec, "detail") ? jstr(rec, "detail") : "(no detail)");
	cr_expect(status && !strcmp(status, "ok"), "[%s] run status %s\n%s", r->append,
		  status ? status : "?", p.err);
	cr_expect_eq(p.status, 0, "[%s] exit %d\n%s\n%s", r->append, p.status, p.out, p.err);
	/* the summary, not a group's "hwbpcheck: NAME: WHAT" heading */
	for (sum = strstr(p.out, "hwbpcheck: "); sum; sum = strstr(sum + 1, "hwbpcheck: "))
		if (sscanf(sum, "hwbpcheck: %u passed, %u failed, %u skipped", &passed, &failed,
			   &skipped) == 3)
			break;
	cr_expect(sum, "[%s] no summary line:\n%s", r->append, p.out);
	for (const char *s = strstr(p.out, "SKIP: "); s; s = strstr(s + 1, "SKIP: ")) {
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(s, "\n"), s);
		shadow += !strncmp(line, "SKIP: movss: ", 13) && strstr(line, "MOV SS shadow");
	}
	cr_expect(failed == 0 && passed + skipped == HWBP_CHECKS, "[%s] %u passed, %u failed, %u "
		  "skipped, want %d checks:\n%s", r->append, passed, failed, skipped, HWBP_CHECKS, p.out);
	cr_expect_eq(skipped, shadow, "[%s] %u SKIPs, only %u of them MOV SS shadow ones:\n%s",
		     r->append, skipped, shadow, p.out);
	if (shadow)
		cr_log_info("[%s] %u MOV SS checks skipped: the vCPU does not hold the #DB in the "
			    "MOV SS shadow (the Bochs tier covers them)", r->append, shadow);
	/* The read() copy's hits took the kernel path (hw_breakpoint.c's count in the console). */
	cons = jstr(rec, "console");
	cons = cons ? strstr(cons, "hwbp: ") : NULL;
	cr_expect(cons && sscanf(cons, "hwbp: %lu #DB in kernel mode", &kernel) == 1 && kernel > 0,
		  "[%s] no kernel-mode #DB counted: %.100s", r->append, cons ? cons : "(no hwbp: line)");
	cr_expect(jget(rec, "guest.unknown_syscalls") &&
			  json_object_get_int64(jget(rec, "guest.unknown_syscalls")) == 0,
		  "[%s] guest.unknown_syscalls %s", r->append, jstr(rec, "guest.unknown_syscalls"));
	/* The record's effective configuration: what the run asked for. */
	for (int i = 0; i < 3; i++) {
		const char *at = strstr(r->append, knobs[i][1]) + strlen(knobs[i][1]);
		const char *got = jstr(rec, knobs[i][0]);
		int len = (int)strcspn(at, " ");

		cr_expect(got && (int)strlen(got) == len && !strncmp(got, at, (size_t)len),
			  "[%s] %s is %s", r->append, knobs[i][0], got ? got : "missing");
	}
	json_object_put(rec);
	proc_free(&p);
}
