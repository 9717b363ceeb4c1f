/*
 * vsyscall modes: calls work in native, emulate and xonly and
 * agree with the vDSO (usercheck's vsyscall.* checks, plus [vsyscall] in
 * /proc/self/maps); in emulate and xonly every call is one emulating page
 * fault; reads in xonly and anything in none end the process with status
 * 139 and a console line saying why; emulate without NX is reported
 * unavailable and runs as xonly.  One boot per case: each costs seconds in
 * the nested runner.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(vsyscall, .timeout = 300);

/*
 * `entrylab run [--append vsyscall=MODE] [--cpu CPU] ARGS...` with a fresh
 * output file; checks the exit status and returns the record (caller puts).
 */
static struct json_object *run(const char *mode, const char *cpu, const char *const *args,
			       int want, struct el_proc *p)
{
	const char *argv[24] = {EL_ENTRYLAB, "run", "-o", NULL};
	char append[32], out[64];
	struct json_object *rec;
	int n = 4;

	snprintf(out, sizeof(out), "vsys-%s-%s.jsonl", mode ? mode : "default", args[0]);
	argv[3] = tmp_output(out);
	if (mode) {
		snprintf(append, sizeof(append), "vsyscall=%s", mode);
		argv[n++] = "--append";
		argv[n++] = append;
	}
	if (cpu) {
		argv[n++] = "--cpu";
		argv[n++] = cpu;
	}
	while (*args && n < 22)
		argv[n++] = *args++;
	argv[n] = NULL;
	proc_run(p, argv);
	cr_expect_eq(p->status, want, "vsyscall=%s: exit %d, want %d\n%s\n%s",
		     mode ? mode : "(default)", p->status, want, p->out, p->err);
	rec = last_record(argv[3]);
	cr_assert(rec, "vsyscall=%s: no record", mode ? mode : "(default)");
	cr_expect_str_eq(jstr(rec, "status"), "ok", "the guest kernel must survive");
	return rec;
}

static void expect_mode(struct json_object *rec, const char *want)
{
	cr_expect_str_eq(jstr(rec, "guest.config.vsyscall"), want,
			 "guest.config.vsyscall is %s, want %s", jstr(rec, "guest.config.vsyscall"),
			 want);
}

/* usercheck --vsyscall=MODE: maps line, calls against the vDSO, reads where readable. */
static void usercheck(const char *mode, const char *expect)
{
	char opt[32];
	const char *args[] = {"--exec", GUEST_BIN "usercheck", opt, NULL};
	struct el_proc p;
	struct json_object *rec;

	snprintf(opt, sizeof(opt), "--vsyscall=%s", expect);
	rec = run(mode, NULL, args, 0, &p);
	expect_mode(rec, expect);
	cr_expect(!strstr(p.out, "FAIL"), "%s", p.out);
	cr_expect(strstr(p.out, "PASS: maps.vsyscall"), "%s", p.out);
	/* EL_SYS_SELF_IPI refuses a count of 0 (irq tests cover the rest of it). */
	cr_expect(strstr(p.out, "PASS: entrylab.self_ipi_einval"), "%s", p.out);
	if (strcmp(expect, "none")) {
		cr_expect(strstr(p.out, "PASS: vsyscall.gettimeofday"), "%s", p.out);
		cr_expect(strstr(p.out, "PASS: vsyscall.time"), "%s", p.out);
		cr_expect(strstr(p.out, "PASS: vsyscall.getcpu"), "%s", p.out);
	}
	if (!strcmp(expect, "emulate"))
		cr_expect(strstr(p.out, "PASS: vsyscall.read"), "%s", p.out);
	json_object_put(rec);
	proc_free(&p);
}

Test(vsyscall, usercheck_emulate)
{
	usercheck("emulate", "emulate");
}

Test(vsyscall, usercheck_xonly_is_the_default)
{
	usercheck(NULL, "xonly");
}

Test(vsyscall, usercheck_none)
{
	usercheck("none", "none");
}

/* The benchmark: every call is emulated through exactly one page fault, no VM exit. */
static void bench(const char *mode, const char *entry, const char *want_mode)
{
	const char *args[] = {"vsyscall", "300", entry, NULL};
	struct el_proc p;
	struct json_object *rec = run(mode, NULL, args, 0, &p);

	expect_mode(rec, want_mode);
	cr_expect_eq(json_object_get_int64(jget(rec, "region.page_faults")), 300,
		     "one emulating page fault per call");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 0,
		     "emulated calls make no syscall");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.exits")), 0);
	cr_expect(strstr(p.out, "errors=0"), "%s", p.out);
	json_object_put(rec);
	proc_free(&p);
}

Test(vsyscall, bench_emulate)
{
	bench("emulate", "time", "emulate");
}

Test(vsyscall, bench_xonly_default)
{
	bench(NULL, "getcpu", "xonly");
}

/* Without NX a readable page is executable: emulate is unavailable and runs as xonly. */
Test(vsyscall, emulate_without_nx_is_unavailable)
{
	const char *args[] = {"vsyscall", "100", NULL};
	struct el_proc p;
	struct json_object *rec = run("emulate", "host,-nx", args, 0, &p);

	expect_mode(rec, "unavailable");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.page_faults")), 100);
	cr_expect(strstr(jstr(rec, "console"), "emulate needs NX"), "no console line says why");
	json_object_put(rec);
	proc_free(&p);
}

/* Ends with 139, the guest kernel survives, and the console names the reason. */
static void killed(const char *mode, const char *const *args, const char *why)
{
	struct el_proc p;
	struct json_object *rec = run(mode, NULL, args, 139, &p);
	const char *console = jstr(rec, "console");

	cr_assert(console, "no console in the record");
	cr_expect(strstr(console, why), "no console line saying \"%s\":\n%s", why, console);
	cr_expect(strstr(console, "segfault at ffffffffff600"), "%s", console);
	json_object_put(rec);
	proc_free(&p);
}

Test(vsyscall, none_call_is_139)
{
	const char *args[] = {"vsyscall", "10", NULL};

	killed("none", args, "vsyscall=none disables legacy vsyscalls");
}

Test(vsyscall, none_read_is_139)
{
	const char *args[] = {"--exec", GUEST_BIN "segv", "vsyscall", NULL};

	killed("none", args, "vsyscall=none maps nothing there");
}

Test(vsyscall, xonly_read_is_139)
{
	const char *args[] = {"--exec", GUEST_BIN "segv", "vsyscall", NULL};

	killed("xonly", args, "vsyscall=xonly makes the page execute-only");
}
