/*
 * Every knob value boots and runs every benchmark it applies to:
 * one generated experiment, one `entrylab matrix` (one nested VM session
 * where there is no usable KVM), then every record checked.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "harness.h"

static const char *const all_benches[] = {"pagefault", "lseek", "getpid", "gettid",
					  "clock_gettime", "gettimeofday", "time", "getcpu",
					  "vsyscall", "irq", NULL};
static const char *const return_benches[] = {"pagefault", "irq", "vsyscall", NULL};
static const char *const irq_benches[] = {"pagefault", "irq", NULL};
static const char *const tlb_benches[] = {"lseek", "pagefault", NULL};
static const char *const vdso_benches[] = {"clock_gettime", "gettimeofday", "time", "getcpu",
					   NULL};
static const char *const tsc_benches[] = {"clock_gettime", "gettimeofday", "time", NULL};
static const char *const clamp_benches[] = {"clock_gettime", "gettimeofday", NULL};
static const char *const vsyscall_bench[] = {"vsyscall", NULL};

static const struct {
	const char *append;
	const char *const *benches;
} knobs[] = {
	{"pti=off", all_benches},
	{"pti=on", all_benches},
	{"nopti", all_benches},
	{"pti=on pti.global=none", all_benches},
	{"pti=on pti.global=entry", all_benches},
	{"pti=on pti.global=all", all_benches},
	{"pti=on nopcid", tlb_benches},
	{"pti=on noinvpcid", tlb_benches},
	{"entry.ret=iret", return_benches},
	{"entry.ret=sysret", return_benches},
	{"pti=on entry.ret=sysret", return_benches},
	{"entry.irq_return=direct", irq_benches},
	{"entry.irq_return=trampoline", irq_benches},
	{"pti=on entry.irq_return=trampoline", irq_benches},
	{"vsyscall=native", vsyscall_bench},
	{"vsyscall=emulate", vsyscall_bench},
	{"vsyscall=xonly", vsyscall_bench},
	{"vdso=on", vdso_benches},
	{"vdso=off", vdso_benches},
	{"vdso.tsc=lfence", tsc_benches},
	{"vdso.tsc=lfence2", tsc_benches},
	{"vdso.tsc=rdtscp", tsc_benches},
	{"vdso.tsc=none", tsc_benches},
	{"vdso.clamp=branch", clamp_benches},
	{"vdso.clamp=cmov", clamp_benches},
};

/* Small iterations per benchmark: a boot each, all in one session. */
static const char *small_args(const char *bench)
{
	return !strcmp(bench, "pagefault") ? "256K 2" : !strcmp(bench, "irq") ? "50 10" : "50";
}

static int write_experiment(const char *path)
{
	FILE *f = fopen(path, "w");
	int n = 0;

	cr_assert(f, "cannot write %s", path);
	fprintf(f, "[experiment]\nname = knobs\ndescription = every knob value, every bench "
		   "it applies to\nbench = getpid\nrepeat = 1\n");
	for (size_t k = 0; k < EL_ARRAY_SIZE(knobs); k++)
		for (const char *const *b = knobs[k].benches; *b; b++, n++)
			fprintf(f, "\n[variant v%d]\nappend = %s\nbench = %s\nargs = %s\n", n,
				knobs[k].append, *b, small_args(*b));
	fclose(f);
	return n;
}

Test(knob_matrix, every_knob_value_runs_its_benchmarks, .timeout = 1200)
{
	char ini[160], out[160];
	struct el_proc p;
	int runs, seen = 0, bad = 0;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	snprintf(ini, sizeof(ini), "%s", tmp_output("knobs.ini"));
	snprintf(out, sizeof(out), "%s", tmp_output("knobs.jsonl"));
	runs = write_experiment(ini);
	cr_log_info("%d runs", runs);
	entrylab(&p, "matrix", ini, "-o", out, NULL);
	cr_expect_eq(p.status, 0, "matrix exit %d:\n%s", p.status, p.err);
	proc_free(&p);

	f = fopen(out, "r");
	cr_assert(f, "no records");
	while (getline(&line, &cap, f) > 0) {
		struct json_object *rec = json_tokener_parse(line);
		const char *st = rec ? jstr(rec, "status") : NULL;
		struct json_object *es = rec ? jget(rec, "guest.exit_status") : NULL;

		seen++;
		if (!st || strcmp(st, "ok") || !es || json_object_get_int(es) != 0 ||
		    !jget(rec, "region.tsc_ticks")) {
			bad++;
			cr_log_error("[%s] %s: %s", rec ? jstr(rec, "request.append") : "?",
				     rec ? jstr(rec, "bench.name") : "?",
				     rec ? (jstr(rec, "detail") ? jstr(rec, "detail") : "no region")
					 : "unparseable record");
		}
		json_object_put(rec);
	}
	free(line);
	fclose(f);
	cr_expect_eq(seen, runs, "%d records for %d runs", seen, runs);
	cr_expect_eq(bad, 0, "%d of %d runs failed (see the log lines above)", bad, seen);
}
