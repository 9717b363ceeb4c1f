/*
 * Entry-code variants: every combination of pti, entry.ret and
 * vsyscall runs the register checker, and every knob value boots and runs
 * a benchmark it applies to; the record shows what the guest set up.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

/* Criterion copies parameters into a re-executed child: no pointers in them. */
struct variant {
	char pti[8], ret[8], vsyscall[8];
};

ParameterizedTestParameters(variants, regcheck)
{
	static struct variant v[16];
	static const char *const ptis[] = {"off", "on"}, *const rets[] = {"iret", "sysret"};
	static const char *const vsys[] = {"native", "emulate", "xonly", "none"};
	size_t n = 0;

	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 2; j++)
			for (size_t k = 0; k < 4; k++, n++) {
				snprintf(v[n].pti, sizeof(v[n].pti), "%s", ptis[i]);
				snprintf(v[n].ret, sizeof(v[n].ret), "%s", rets[j]);
				snprintf(v[n].vsyscall, sizeof(v[n].vsyscall), "%s", vsys[k]);
			}
	return cr_make_param_array(struct variant, v, n);
}

ParameterizedTest(struct variant *v, variants, regcheck, .timeout = 300)
{
	char append[128], name[64];
	const char *out;
	struct el_proc p;
	struct json_object *rec;
	bool calls = strcmp(v->vsyscall, "none") != 0;
	const char *argv[16] = {EL_ENTRYLAB, "run", "--append", append, "-o", NULL, "--exec",
				GUEST_BIN "regcheck", "-n", "20", "--self-ipi",
				calls ? "--vsyscall" : NULL, NULL};

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s vsyscall=%s", v->pti, v->ret,
		 v->vsyscall);
	snprintf(name, sizeof(name), "regcheck-%s-%s-%s.jsonl", v->pti, v->ret, v->vsyscall);
	out = argv[5] = tmp_output(name);
	cr_log_info("configuration: %s", append);
	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "[%s] regcheck exit %d:\n%s%s", append, p.status, p.out, p.err);
	rec = last_record(out);
	cr_assert(rec, "[%s] no record", append);
	cr_expect_str_eq(jstr(rec, "guest.config.pti"), v->pti, "[%s]", append);
	cr_expect_str_eq(jstr(rec, "guest.config.ret"), v->ret, "[%s]", append);
	cr_expect_str_eq(jstr(rec, "guest.config.vsyscall"), v->vsyscall, "[%s]", append);
	cr_expect(json_object_get_boolean(jget(rec, "guest.selfcheck.passed")),
		  "[%s] self-check failed", append);
	json_object_put(rec);
	proc_free(&p);
}

Test(variants, pti_without_global_pages, .timeout = 300)
{
	struct el_proc p;
	const char *out = tmp_output("pti-global-none.jsonl");
	struct json_object *rec;

	entrylab(&p, "run", "--append", "pti=on pti.global=none", "-o", out, "lseek", "200", NULL);
	cr_assert_eq(p.status, 0, "%s", p.err);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "guest.config.pti"), "on");
	cr_expect_str_eq(jstr(rec, "guest.config.global"), "none");
	cr_expect_str_eq(jstr(rec, "guest.selfcheck.checks.pti_user_map"), "passed");
	cr_expect(json_object_get_boolean(jget(rec, "guest.selfcheck.passed")));
	json_object_put(rec);
	proc_free(&p);
}

struct knob_run {
	char append[48], key[16], want[16], bench[16], arg[8];
};

ParameterizedTestParameters(variants, knob_values)
{
	static struct knob_run k[] = {
		{"pti=off", "pti", "off", "getpid", "200"},
		{"pti=on", "pti", "on", "getpid", "200"},
		{"nopti", "pti", "off", "getpid", "200"},
		{"pti=on nopcid", "pcid", "off", "lseek", "200"},
		{"pti=on noinvpcid", "invpcid", "", "lseek", "200"},
		{"pti=on pti.global=none", "global", "none", "lseek", "200"},
		{"pti=on pti.global=entry", "global", "entry", "lseek", "200"},
		{"pti=on pti.global=all", "global", "all", "lseek", "200"},
		{"entry.ret=iret", "ret", "iret", "pagefault", "256K"},
		{"entry.ret=sysret", "ret", "sysret", "pagefault", "256K"},
		{"entry.irq_return=direct", "irq_return", "direct", "irq", "100"},
		{"entry.irq_return=trampoline", "irq_return", "trampoline", "irq", "100"},
		{"pti=on entry.irq_return=trampoline", "irq_return", "trampoline", "irq", "100"},
		{"vsyscall=native", "vsyscall", "native", "vsyscall", "100"},
		{"vsyscall=emulate", "vsyscall", "emulate", "vsyscall", "100"},
		{"vsyscall=xonly", "vsyscall", "xonly", "vsyscall", "100"},
		{"vdso=on", "vdso", "on", "clock_gettime", "1000"},
		{"vdso=off", "vdso", "off", "clock_gettime", "1000"},
		{"vdso.tsc=lfence", "vdso_tsc", "lfence", "clock_gettime", "1000"},
		{"vdso.tsc=lfence2", "vdso_tsc", "lfence2", "clock_gettime", "1000"},
		{"vdso.tsc=rdtscp", "vdso_tsc", "", "clock_gettime", "1000"},
		{"vdso.tsc=none", "vdso_tsc", "none", "clock_gettime", "1000"},
		{"vdso.clamp=branch", "vdso_clamp", "branch", "gettimeofday", "1000"},
		{"vdso.clamp=cmov", "vdso_clamp", "cmov", "gettimeofday", "1000"},
	};

	return cr_make_param_array(struct knob_run, k, EL_ARRAY_SIZE(k));
}

/* want "": the value depends on the vCPU (e.g. rdtscp, invpcid); it must be named, not guessed. */
ParameterizedTest(struct knob_run *k, variants, knob_values, .timeout = 300)
{
	char path[64], key[64];
	const char *out;
	struct el_proc p;
	struct json_object *rec;
	const char *got;

	snprintf(path, sizeof(path), "knob-%s-%s.jsonl", k->key, k->bench);
	cr_log_info("knobs: %s, bench: %s", k->append, k->bench);
	out = tmp_output(path);
	entrylab(&p, "run", "--append", k->append, "-o", out, k->bench, k->arg, NULL);
	cr_expect_eq(p.status, 0, "[%s] %s exit %d:\n%s", k->append, k->bench, p.status, p.err);
	rec = last_record(out);
	cr_assert(rec, "[%s] no record", k->append);
	snprintf(key, sizeof(key), "guest.config.%s", k->key);
	got = jstr(rec, key);
	cr_assert(got, "[%s] %s missing", k->append, key);
	if (k->want[0])
		cr_expect_str_eq(got, k->want, "[%s]", k->append);
	cr_expect(jget(rec, "region.tsc_ticks"), "[%s] no measured region", k->append);
	json_object_put(rec);
	proc_free(&p);
}
