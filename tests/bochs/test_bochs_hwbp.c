/*
 * Hardware breakpoints under Bochs: tests/guest/hwbpcheck in the
 * 8 entry variants on the Haswell model, which holds the #DB of a watchpoint
 * hit by MOV SS in the MOV SS shadow: over a SYSCALL it lands on the first
 * instruction of entry_SYSCALL_64(_pti), in ring 0 with the user GS and,
 * under PTI, the user CR3 (CVE-2018-8897), which the guest kernel counts
 * ("hwbp:" console line); over INT n Bochs drops it (no kernel-mode #DB),
 * so those checks see only what Linux's user sees anyway.  QEMU TCG,
 * beneath the nested runner, delivers it right after the MOV SS instead, so
 * tests/kvm/test_hwbp.c can only skip the MOV SS checks: here every check
 * of the program must pass, none skipped.  The program's lines come back in
 * the record's console.  8 boots of about 10 s.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define HWBPCHECK EL_BINARY_DIR "/guest/hwbpcheck"
#define HWBP_WANT "hwbpcheck: 31 passed, 0 failed, 0 skipped"

struct hwbp_variant {
	char append[64];
};

/* The record keys of the three knobs, and how --append names them. */
static const char *const knobs[3][2] = {
	{"guest.config.pti", "pti="},
	{"guest.config.ret", "entry.ret="},
	{"guest.config.irq_return", "entry.irq_return="},
};

ParameterizedTestParameters(bochs_hwbp, matrix)
{
	static struct hwbp_variant v[8];

	for (int i = 0; i < 8; i++)
		el_variant_append(i, v[i].append, sizeof(v[i].append));
	return cr_make_param_array(struct hwbp_variant, v, 8);
}

ParameterizedTest(struct hwbp_variant *v, bochs_hwbp, matrix, .timeout = 300)
{
	const char *out = tmp_output("bochs-hwbp.jsonl");
	const char *argv[] = {EL_ENTRYLAB, "run", "--engine", "bochs", "--cpu-model",
			      "corei7_haswell_4770", "--append", v->append, "-o", out, "--timeout",
			      "250", "--exec", HWBPCHECK, NULL};
	struct el_proc p;
	struct json_object *rec;
	const char *console, *status;
	const char *line;
	unsigned long kernel = 0, entry = 0;

	if (!in_path("bochs") || !in_path("grub-mkrescue"))
		cr_skip_test("bochs or grub-mkrescue is not installed (harness/bootstrap.sh)");
	cr_assert(access(HWBPCHECK, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)", HWBPCHECK);
	proc_run(&p, argv);
	rec = last_record(out);
	cr_assert(rec, "[%s] no record (exit %d)\n%s%s", v->append, p.status, p.out, p.err);
	status = jstr(rec, "status");
	console = jstr(rec, "console");
	cr_expect(status && !strcmp(status, "ok"), "[%s] run status %s\n%s", v->append,
		  status ? status : "?", p.err);
	cr_expect(console && strstr(console, HWBP_WANT), "[%s] want \"%s\":\n%s", v->append,
		  HWBP_WANT, console ? console : "(no console)");
	cr_expect(console && strstr(console, "init (pid 1) exited with status 0"),
		  "[%s] hwbpcheck did not exit 0", v->append);
	/*
	 * The guest kernel's count (hw_breakpoint.c): the read() copy's hits, and
	 * the MOV SS + SYSCALL one on entry_SYSCALL_64's first instruction (Bochs
	 * holds it over the SYSCALL; over INT n it drops it, so at least 1).
	 */
	line = console ? strstr(console, "hwbp: ") : NULL;
	cr_expect(line && sscanf(line, "hwbp: %lu #DB in kernel mode from user breakpoints, %lu on "
				 "an entry's first instruction", &kernel, &entry) == 2 &&
			  kernel > entry && entry >= 1,
		  "[%s] want kernel-mode #DBs, one on an entry's first instruction: %.100s",
		  v->append, line ? line : "(no hwbp: line)");
	/* The record's effective configuration: what the run asked for. */
	for (int i = 0; i < 3; i++) {
		const char *at = strstr(v->append, knobs[i][1]) + strlen(knobs[i][1]);
		const char *got = jstr(rec, knobs[i][0]);
		int len = (int)strcspn(at, " ");

		cr_expect(got && (int)strlen(got) == len && !strncmp(got, at, (size_t)len),
			  "[%s] %s is %s", v->append, knobs[i][0], got ? got : "missing");
	}
	json_object_put(rec);
	proc_free(&p);
}
