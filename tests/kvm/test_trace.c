/*
 * `entrylab trace`: the guest under QEMU TCG with the eltrace plugin counts
 * the instructions of the region exactly, by privilege and by symbol, the
 * same every time; it never needs /dev/kvm or the nested runner.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(trace, .timeout = 300);

static void need_qemu(void)
{
	if (access("/usr/bin/qemu-system-x86_64", X_OK))
		cr_skip_test("no qemu-system-x86_64 (harness/bootstrap.sh installs it)");
}

static int64_t jint(struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	cr_assert(v, "no %s in the record", path);
	return json_object_get_int64(v);
}

/* One trace of gettid 50 into its own file; the record (caller puts it). */
static struct json_object *trace_gettid(const char *name, const char *append)
{
	char out[200];
	struct el_proc p;
	struct json_object *rec;

	snprintf(out, sizeof(out), "%s", tmp_output(name));
	entrylab(&p, "trace", "-o", out, "-a", append, "gettid", "50", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "kernel") && strstr(p.out, "per iteration"),
		  "no summary table:\n%s", p.out);
	proc_free(&p);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_assert_str_eq(jstr(rec, "status"), "ok");
	return rec;
}

Test(trace, gettid_counts_exact_and_repeatable)
{
	struct json_object *a, *b, *syms;
	double kpi;
	int64_t sum = 0;

	need_qemu();
	a = trace_gettid("a.jsonl", "");
	b = trace_gettid("b.jsonl", "");
	cr_expect_str_eq(jstr(a, "schema"), "entrylab.run/1");
	cr_expect_str_eq(jstr(a, "host.kvm"), "tcg", "a trace runs under TCG, never KVM or nested");
	cr_expect_eq(jint(a, "bench.iterations"), 50);
	cr_expect_gt(jint(a, "trace.kernel"), 0);
	cr_expect_gt(jint(a, "trace.user"), 0);
	kpi = json_object_get_double(jget(a, "trace.per_iter.kernel"));
	cr_expect(kpi >= 20 && kpi <= 5000, "kernel instructions per gettid: %f", kpi);
	cr_expect_eq(jint(a, "trace.kernel"), jint(b, "trace.kernel"), "not deterministic");
	cr_expect_eq(jint(a, "trace.user"), jint(b, "trace.user"), "not deterministic");
	syms = jget(a, "trace.symbols");
	cr_assert(syms && json_object_array_length(syms) > 0, "no symbols");
	for (size_t i = 0; i < json_object_array_length(syms); i++)
		sum += jint(json_object_array_get_idx(syms, i), "count");
	cr_expect_eq(sum, jint(a, "trace.user") + jint(a, "trace.kernel"),
		     "symbols must add up to the total");
	cr_expect(jget(a, "guest.config.pti"), "guest.config parsed from the boot report");
	/* The guest's own region counters, as in a run record; no VM exits under TCG. */
	cr_expect_eq(jint(a, "region.syscalls"), 50);
	cr_expect_eq(jint(a, "region.page_faults"), 0);
	cr_expect_eq(jint(a, "region.interrupts"), 0);
	cr_expect_eq(jint(a, "region.tsc_khz"), 1000000, "el.tsc_khz=1000000 under -icount");
	cr_expect(json_object_object_get_ex(jget(a, "region"), "exits", NULL) &&
			  !jget(a, "region.exits"),
		  "region.exits must be null: TCG has no VM exits");
	cr_expect_str_eq(jstr(a, "qemu.bios") ? jstr(a, "qemu.bios") : "(null)",
			 access("/usr/share/qemu/qboot.rom", R_OK) ? "(null)"
								   : "/usr/share/qemu/qboot.rom");
	json_object_put(a);
	json_object_put(b);
}

Test(trace, pti_costs_kernel_instructions)
{
	struct json_object *off, *on;
	const char *pti;

	need_qemu();
	off = trace_gettid("off.jsonl", "pti=off");
	on = trace_gettid("on.jsonl", "pti=on");
	pti = jstr(on, "guest.config.pti");
	if (!pti || strcmp(pti, "on"))
		cr_skip_test("the guest did not set up pti=on (guest.config.pti %s)",
			     pti ? pti : "?");
	cr_expect_gt(json_object_get_double(jget(on, "trace.per_iter.kernel")),
		     json_object_get_double(jget(off, "trace.per_iter.kernel")),
		     "PTI's CR3 switches must show in the path length");
	json_object_put(off);
	json_object_put(on);
}

Test(trace, listing_shows_the_path)
{
	struct el_proc p;

	need_qemu();
	entrylab(&p, "trace", "-o", tmp_output("l.jsonl"), "--listing", "gettid", "5", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect(strstr(p.out, "listing:"), "no listing:\n%s", p.out);
	cr_expect(strstr(p.out, "syscall"), "the SYSCALL instruction is not listed:\n%s", p.out);
	cr_expect(strstr(p.out, "[kernel] ") && strstr(p.out, "[program] "),
		  "kernel and program headings expected:\n%s", p.out);
	proc_free(&p);
}

Test(trace, usage_errors)
{
	struct el_proc p;

	entrylab(&p, "trace", "no-such-bench", NULL);
	cr_expect_eq(p.status, 120, "unknown bench: exit %d", p.status);
	cr_expect(strstr(p.err, "no-such-bench"), "%s", p.err);
	proc_free(&p);
	entrylab(&p, "trace", "--nested", "gettid", NULL);
	cr_expect_eq(p.status, 120, "--nested: exit %d", p.status);
	proc_free(&p);
	entrylab(&p, "trace", "-c", "host,+arch-perfmon", "gettid", NULL);
	cr_expect_eq(p.status, 121, "+arch-perfmon under TCG: exit %d", p.status);
	proc_free(&p);
}

Test(trace, json_is_one_line)
{
	struct el_proc p;
	struct json_object *o;

	need_qemu();
	entrylab(&p, "trace", "-o", tmp_output("j.jsonl"), "--json", "gettid", "5", NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s", p.status, p.err);
	cr_expect(strchr(p.out, '\n') == p.out + strlen(p.out) - 1,
		  "--json must print one JSON line:\n%s", p.out);
	o = json_tokener_parse(p.out);
	cr_expect(o && jget(o, "trace.kernel"), "not the record:\n%s", p.out);
	json_object_put(o);
	proc_free(&p);
}

/* guest/examples (README.md there): touch-pages has no markers, -if runs its own only on "mark". */
#define EXAMPLES EL_BINARY_DIR "/guest/examples/"

/* Is key present in the object at path, and null (a figure nobody measured)? */
static bool is_null(struct json_object *rec, const char *path, const char *key)
{
	struct json_object *o = jget(rec, path), *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) && !v;
}

/* A symbol's count in trace.symbols; 0 if absent. */
static int64_t sym_count(struct json_object *rec, const char *name)
{
	struct json_object *syms = jget(rec, "trace.symbols");

	for (size_t i = 0; syms && i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);

		if (!strcmp(jstr(s, "name"), name))
			return jint(s, "count");
	}
	return 0;
}

/* trace [-n N] --exec prog [ARGS] (up to 3, NULL ends them); the record (caller puts it). */
static struct json_object *trace_example(struct el_proc *p, const char *name, const char *n,
					 const char *prog, const char *a1, const char *a2,
					 const char *a3)
{
	char out[200];
	struct json_object *rec;

	snprintf(out, sizeof(out), "%s", tmp_output(name));
	if (access(prog, X_OK))
		cr_assert_fail("%s is not built (guest/CMakeLists.txt)", prog);
	if (n)
		entrylab(p, "trace", "-o", out, "-n", n, "--exec", prog, a1, a2, a3, NULL);
	else
		entrylab(p, "trace", "-o", out, "--exec", prog, a1, a2, a3, NULL);
	cr_assert_eq(p->status, 0, "exit %d: the program's status\n%s%s", p->status, p->out,
		     p->err);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_assert_str_eq(jstr(rec, "status"), "ok", "%s", jstr(rec, "detail"));
	return rec;
}

/*
 * A program without markers is measured whole, as perf stat counts a
 * command: from its first user instruction (_start, after exec) to its exit.
 * Totals only without -n; -n N divides the same counts.
 */
Test(trace, unmarked_program_is_traced_whole)
{
	struct el_proc p, q;
	struct json_object *a, *b, *syms;
	int64_t user, kernel, sum = 0;

	need_qemu();
	a = trace_example(&p, "w.jsonl", NULL, EXAMPLES "touch-pages", NULL, NULL, NULL);
	cr_expect(strstr(p.out, "scope: the whole program"), "summary:\n%s", p.out);
	cr_expect(strstr(p.out, "(totals: give -n N"), "no totals label:\n%s", p.out);
	cr_expect(!strstr(p.out, "not measured"), "%s", p.out);
	cr_expect_str_eq(jstr(a, "region.scope"), "whole-program");
	cr_expect_str_eq(jstr(a, "trace.window"), "user");
	cr_expect_eq(jint(a, "trace.windows"), 1);
	user = jint(a, "trace.user");
	kernel = jint(a, "trace.kernel");
	cr_expect_gt(user, 1000, "the program's own instructions: %lld", (long long)user);
	/* 1024 page faults (1M, 4 rounds), each dozens of kernel instructions. */
	cr_expect_eq(jint(a, "region.page_faults"), 1024);
	cr_expect_gt(kernel, 1024 * 20, "kernel instructions: %lld", (long long)kernel);
	cr_expect(is_null(a, "trace", "per_iter") && is_null(a, "trace", "iterations"),
		  "no -n: totals only, per_iter null");
	cr_expect_gt(sym_count(a, "_start"), 0, "the window opens at the entry point, _start");
	syms = jget(a, "trace.symbols");
	cr_assert(syms && json_object_array_length(syms) > 10, "no symbols");
	for (size_t i = 0; i < json_object_array_length(syms); i++)
		sum += jint(json_object_array_get_idx(syms, i), "count");
	cr_expect_eq(sum, user + kernel, "symbols must add up to the total");
	proc_free(&p);

	b = trace_example(&q, "wn.jsonl", "1024", EXAMPLES "touch-pages", NULL, NULL, NULL);
	cr_expect_eq(jint(b, "trace.kernel"), kernel, "-n divides, it does not change the run");
	cr_expect_eq(jint(b, "trace.iterations"), 1024);
	cr_expect_float_eq(json_object_get_double(jget(b, "trace.per_iter.kernel")),
			   (double)kernel / 1024, 1e-9);
	cr_expect(strstr(q.out, "per iteration"), "%s", q.out);
	proc_free(&q);
	json_object_put(a);
	json_object_put(b);
}

/* Markers that never run: "not measured" with the reason, nulls, the program's status. */
Test(trace, markers_that_never_run_measure_nothing)
{
	struct el_proc p, q;
	struct json_object *a, *b;

	need_qemu();
	a = trace_example(&p, "never.jsonl", NULL, EXAMPLES "touch-pages-if", NULL, NULL, NULL);
	cr_expect(strstr(p.out, "not measured: the program's markers never ran: no BEGIN marker "
				"executed"), "summary:\n%s", p.out);
	cr_expect(!strstr(p.out, "instructions"), "a table of figures nobody measured:\n%s",
		  p.out);
	cr_expect(strstr(p.err, "not measured") && strstr(p.err, "the program's"),
		  "stderr must say it, and whose exit status this is:\n%s", p.err);
	cr_expect_str_eq(jstr(a, "region.scope"), "marked");
	cr_expect_eq(jint(a, "trace.windows"), 0);
	cr_expect(jstr(a, "trace.not_measured") && strstr(jstr(a, "trace.not_measured"),
							   "markers never ran"));
	for (const char *const *k = (const char *const[]){"user", "kernel", "total", "per_iter",
							  "symbols", NULL}; *k; k++)
		cr_expect(is_null(a, "trace", *k), "trace.%s must be null", *k);
	cr_expect(is_null(a, "region", "page_faults"), "region.page_faults must be null");
	proc_free(&p);

	/* The same program with its markers run: measured, so the check above can fail. */
	b = trace_example(&q, "mark.jsonl", NULL, EXAMPLES "touch-pages-if", "1M", "4", "mark");
	cr_expect_eq(jint(b, "trace.windows"), 1, "%s", q.out);
	cr_expect_gt(jint(b, "trace.kernel"), 1024 * 20);
	cr_expect_eq(jint(b, "trace.iterations"), 1024, "the faults it declared");
	proc_free(&q);
	json_object_put(a);
	json_object_put(b);
}

/*
 * Children count, as perf stat counts a command's: wholecheck's child
 * writes PAGES fresh pages (a fault each) before the parent's wait; 64 more
 * pages are 64 more faults and their instructions in the same window.
 */
Test(trace, whole_program_counts_its_children)
{
	static const char prog[] = EL_BINARY_DIR "/guest/wholecheck";
	struct el_proc p, q;
	struct json_object *one, *more;

	need_qemu();
	one = trace_example(&p, "c1.jsonl", NULL, prog, "fork", "1", NULL);
	more = trace_example(&q, "c65.jsonl", NULL, prog, "fork", "65", NULL);
	cr_expect_str_eq(jstr(one, "region.scope"), "whole-program", "no sites: whole");
	cr_expect_eq(jint(more, "region.page_faults") - jint(one, "region.page_faults"), 64);
	cr_expect_geq(jint(more, "trace.user") - jint(one, "trace.user"), 64,
		     "the child's 64 more stores: user %lld -> %lld",
		     (long long)jint(one, "trace.user"), (long long)jint(more, "trace.user"));
	cr_expect_geq(jint(more, "trace.kernel") - jint(one, "trace.kernel"), 64 * 50,
		     "64 more page faults in the child: kernel %lld -> %lld",
		     (long long)jint(one, "trace.kernel"), (long long)jint(more, "trace.kernel"));
	proc_free(&p);
	proc_free(&q);
	json_object_put(one);
	json_object_put(more);
}
