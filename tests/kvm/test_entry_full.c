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
#include "array_size.h"

#include "guest_run.h"
#include "harness.h"

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

/* Boots the guest with the run's configuration and checks what came back (guest_run.h). */
static void run_program(const struct prog_run *r)
{
	guest_run_checked(&(struct guest_run){.prog = r->prog, .args = r->args, .pti = r->pti,
					      .ret = r->ret, .irq = r->irq});
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
		static struct prog_run v[EL_ARRAY_SIZE(which)];                       \
		for (size_t i = 0; i < EL_ARRAY_SIZE(which); i++)                     \
			fill(&v[i], prog, args, which[i]);                                        \
		return cr_make_param_array(struct prog_run, v, EL_ARRAY_SIZE(which)); \
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
