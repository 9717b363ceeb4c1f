/*
 * Signals, sigreturn, processes, threads, ptrace and the x86
 * specifics, each checked by a program of ours (tests/guest/) that passes on
 * a Linux host first, run in the guest under the entry-variant matrix:
 * pti off/on x entry.ret iret/sysret x entry.irq_return direct/trampoline.
 *
 * Budget: every `entrylab run` is a boot (10-15 s in the nested runner), so
 * the programs whose checks every configuration must pass (sigcheck: the
 * repaired SIGSEGV; sigreturn_check: non-canonical RIP and TF, sysret too)
 * run all 8 configurations; forkcheck, threadcheck and ptracecheck run the 4
 * of an orthogonal array (every value of each knob twice, every pair of
 * values of any two knobs once); archcheck 2; the extra groups once.
 * 32 boots.  Every run must exit 0 with guest.unknown_syscalls 0 and the
 * configuration it asked for.  How long the getpid path may be is not checked
 * here: path_ceilings.txt holds that ceiling (row getpid), and the
 * path_length suite checks it.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(entry_full, .timeout = 900);

/* Criterion copies parameters into a re-executed child: no pointers in them. */
struct prog_run {
	char prog[24], args[40];
	char pti[4], ret[8], irq[12];
};

/* An orthogonal array over the three two-valued knobs: each row turns on two or none. */
static const int array4[4] = {
	EL_VARIANT_OFF,
	EL_VARIANT_SYSRET | EL_VARIANT_TRAMPOLINE,
	EL_VARIANT_PTI | EL_VARIANT_TRAMPOLINE,
	EL_VARIANT_PTI | EL_VARIANT_SYSRET,
};
/* Both ends: everything off/iret/direct, everything on/sysret/trampoline. */
static const int ends2[2] = {EL_VARIANT_OFF, EL_VARIANT_ON};

static void fill(struct prog_run *r, const char *prog, const char *args, int config)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->prog, sizeof(r->prog), "%s", prog);
	snprintf(r->args, sizeof(r->args), "%s", args);
	snprintf(r->pti, sizeof(r->pti), "%s", el_variant_pti(config));
	snprintf(r->ret, sizeof(r->ret), "%s", el_variant_ret(config));
	snprintf(r->irq, sizeof(r->irq), "%s", el_variant_irq(config));
}

/* The lines of `out` that start with `tag` (e.g. "FAIL:"), at most cap bytes. */
static void lines_with(const char *out, const char *tag, char *buf, size_t cap)
{
	size_t len = 0, n = strlen(tag);

	buf[0] = '\0';
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *e = strchr(l, '\n');
		size_t ll = e ? (size_t)(e - l) + 1 : strlen(l);

		if (!strncmp(l, tag, n) && len + ll < cap) {
			memcpy(buf + len, l, ll);
			len += ll;
			buf[len] = '\0';
		}
	}
}

/* The record's effective configuration must be what the run asked for. */
static void expect_config(struct json_object *rec, const char *key, const char *want,
			  const char *append)
{
	const char *got = jstr(rec, key);

	cr_expect(got && !strcmp(got, want), "[%s] %s is %s, asked for %s", append, key,
		  got ? got : "missing", want);
}

/* Boots the guest with the run's configuration and checks what came back. */
static void run_program(const struct prog_run *r)
{
	char append[96], name[96], prog[160], args[sizeof(r->args)], fails[4096], skips[2048];
	const char *argv[24] = {EL_ENTRYLAB, "run", "--append", append, "-o", NULL,
				"--timeout", "150", "--exec", prog};
	int n = 10;
	struct el_proc p;
	struct json_object *rec;
	const char *status;

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s entry.irq_return=%s", r->pti, r->ret,
		 r->irq);
	snprintf(name, sizeof(name), "%s-%s-%s-%s.jsonl", r->prog, r->pti, r->ret, r->irq);
	snprintf(prog, sizeof(prog), GUEST_BIN "%s", r->prog);
	snprintf(args, sizeof(args), "%s", r->args);
	for (char *save, *a = strtok_r(args, " ", &save); a && n < 22; a = strtok_r(NULL, " ", &save))
		argv[n++] = a;
	argv[n] = NULL;
	argv[5] = tmp_output(name);
	cr_assert(access(prog, X_OK) == 0, "%s is not built (guest/CMakeLists.txt)", prog);
	cr_log_info("[%s] %s %s", append, r->prog, r->args);
	proc_run(&p, argv);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] %s: no record (exit %d)\n%s%s", append, r->prog, p.status, p.out, p.err);
	status = jstr(rec, "status");
	if (status && !strcmp(status, "unsupported"))
		cr_skip_test("[%s] %s: the vCPU cannot run this configuration: %s", append, r->prog,
			     jstr(rec, "detail") ? jstr(rec, "detail") : "(no detail)");
	lines_with(p.out, "FAIL", fails, sizeof(fails));
	lines_with(p.out, "SKIP", skips, sizeof(skips));
	if (skips[0])
		/* info, not warn: Criterion 2.4 fails a run that logged any warning. */
		cr_log_info("[%s] %s skipped checks (the vCPU or the host lacks something):\n%s",
			    append, r->prog, skips);
	cr_expect(status && !strcmp(status, "ok"), "[%s] %s: run status %s\n%s", append, r->prog,
		  status ? status : "?", p.err);
	cr_expect_eq(p.status, 0, "[%s] %s exit %d\n%s--- console / entrylab:\n%s", append, r->prog,
		     p.status, fails[0] ? fails : "(no FAIL line: it crashed or hung)\n", p.err);
	cr_expect(strstr(p.out, "PASS: "), "[%s] %s: no PASS line arrived from the guest", append,
		  r->prog);
	cr_expect(!fails[0], "[%s] %s:\n%s", append, r->prog, fails);
	cr_expect(jget(rec, "guest.unknown_syscalls") &&
			  json_object_get_int64(jget(rec, "guest.unknown_syscalls")) == 0,
		  "[%s] %s: guest.unknown_syscalls %s (a system call the kernel does not know)",
		  append, r->prog, jstr(rec, "guest.unknown_syscalls"));
	expect_config(rec, "guest.config.pti", r->pti, append);
	expect_config(rec, "guest.config.ret", r->ret, append);
	expect_config(rec, "guest.config.irq_return", r->irq, append);
	json_object_put(rec);
	proc_free(&p);
}

#define ALL8(prog, args)                                                     \
	do {                                                                 \
		static struct prog_run v[EL_VARIANTS];                       \
		for (int i = 0; i < EL_VARIANTS; i++)                        \
			fill(&v[i], prog, args, i);                          \
		return cr_make_param_array(struct prog_run, v, EL_VARIANTS); \
	} while (0)
#define SOME(prog, args, which)                                                                   \
	do {                                                                                      \
		static struct prog_run v[sizeof(which) / sizeof(which[0])];                       \
		for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++)                     \
			fill(&v[i], prog, args, which[i]);                                        \
		return cr_make_param_array(struct prog_run, v, sizeof(which) / sizeof(which[0])); \
	} while (0)

/* The entry_full test named `test`: the program runs the `params` give it (ALL8, SOME). */
#define PROGRAM_TEST(test, params)                                              \
	ParameterizedTestParameters(entry_full, test)                           \
	{                                                                       \
		params;                                                         \
	}                                                                       \
	ParameterizedTest(struct prog_run *r, entry_full, test, .timeout = 300) \
	{                                                                       \
		run_program(r);                                                 \
	}

/* A SIGSEGV handler repairs the context and the program resumes (group segv),
 * with every other signal group. */
PROGRAM_TEST(sigcheck, ALL8("sigcheck", ""))

/* Sigreturn to a non-canonical RIP is SIGSEGV; TF from sigreturn traps after one
 * instruction, entry.ret=sysret too. */
PROGRAM_TEST(sigreturn_check, ALL8("sigreturn_check", ""))

/* Fork, wait and the exit status. */
PROGRAM_TEST(forkcheck, SOME("forkcheck", "", array4))

/* 4 threads contending on a mutex (group mutex), and the rest of threading. */
PROGRAM_TEST(threadcheck, SOME("threadcheck", "", array4))

/* A parent single-steps its child through a SYSCALL (group step). */
PROGRAM_TEST(ptracecheck, SOME("ptracecheck", "", array4))

PROGRAM_TEST(archcheck, SOME("archcheck", "", ends2))

/* Linux behaviour beyond the groups above: real-time signals queue; orphans are reparented. */
ParameterizedTestParameters(entry_full, extras)
{
	static struct prog_run v[2];

	fill(&v[0], "sigcheck", "queue", EL_VARIANT_ON);
	fill(&v[1], "forkcheck", "orphan", EL_VARIANT_OFF);
	return cr_make_param_array(struct prog_run, v, 2);
}
ParameterizedTest(struct prog_run *r, entry_full, extras, .timeout = 300)
{
	run_program(r);
}
