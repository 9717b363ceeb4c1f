/*
 * `entrylab trace --guest linux`: Debian's kernel (the default: the nested
 * runner's, Linux 6.1) runs getpid under QEMU TCG with the eltrace plugin,
 * and the window is the loop alone.  Two boots, pti off and on: kernel
 * instructions per getpid in a plausible band (measured outside the product
 * at ~305), Linux's own symbols for its entry code, the record a Linux
 * guest's, and PTI adding kernel instructions to every call where PTI
 * lives.  QEMU only: no /dev/kvm, no nested runner.
 *
 * Kernel symbols come from /proc/kallsyms (KSYMS) the first time a kernel
 * file is traced, from the cache after: the cache is the build's
 * (tests/ksyms-cache), so a fresh build pays the ~15 s of KSYMS once.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(trace_linux, .timeout = 600);

/* The default Linux kernel (vmm/program.h linux_kernel_default) is there, and QEMU. */
static void need_linux(void)
{
	const char *env = getenv("ENTRYLAB_LINUX_KERNEL");

	if (access("/usr/bin/qemu-system-x86_64", X_OK))
		cr_skip_test("no qemu-system-x86_64 (harness/bootstrap.sh installs it)");
	if ((!env || !*env) && access(EL_BINARY_DIR "/nested/kernel", R_OK))
		cr_skip_test("no Linux kernel: " EL_BINARY_DIR "/nested/kernel is missing (the "
			     "build fetches Debian's for the nested runner; ENTRYLAB_LINUX_KERNEL "
			     "names another)");
}

static double jdouble(struct json_object *o, const char *path)
{
	struct json_object *v = jget(o, path);

	cr_assert(v, "no %s in the record", path);
	return json_object_get_double(v);
}

/* A symbol's count per iteration in the record's trace.symbols; 0 if absent. */
static double sym_per_iter(struct json_object *rec, const char *name)
{
	struct json_object *syms = jget(rec, "trace.symbols");
	double it = jdouble(rec, "trace.iterations");

	for (size_t i = 0; syms && i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);

		if (!strcmp(jstr(s, "name"), name))
			return json_object_get_double(jget(s, "count")) / it;
	}
	return 0;
}

static struct json_object *trace_getpid(const char *name, const char *append)
{
	char out[200];
	struct el_proc p;
	struct json_object *rec;

	need_linux();
	setenv("ENTRYLAB_KSYMS_CACHE", EL_BINARY_DIR "/tests/ksyms-cache", 1);
	snprintf(out, sizeof(out), "%s", tmp_output(name));
	entrylab(&p, "trace", "--guest", "linux", "-o", out, "-a", append, "-n", "2000", "getpid",
		 NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "linux: the window is the loop alone"), "summary:\n%s", p.out);
	proc_free(&p);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_assert_str_eq(jstr(rec, "status"), "ok", "%s", jstr(rec, "detail"));
	return rec;
}

Test(trace_linux, getpid_on_debian_6_1_and_pti)
{
	struct json_object *off = trace_getpid("off.jsonl", ""), *on;
	double k_off = jdouble(off, "trace.per_iter.kernel"), k_on, u, pti_off, pti_on;
	const char *syms = jstr(off, "trace.kernel_symbols");

	/* The record is a Linux guest's, from /init's frames. */
	cr_expect_str_eq(jstr(off, "guest.kind"), "linux");
	cr_expect(jstr(off, "guest.linux.release") && *jstr(off, "guest.linux.release"),
		  "no release from INFO");
	cr_expect_str_eq(jstr(off, "guest.config.pti"), "off");
	cr_expect_str_eq(jstr(off, "host.kvm"), "tcg");
	cr_expect(strstr(jstr(off, "guest.kernel.format"), "PVH"), "the default boots by PVH: %s",
		  jstr(off, "guest.kernel.format"));
	cr_expect_eq(jdouble(off, "bench.iterations"), 2000, "from the RUN report");
	cr_expect_eq(jdouble(off, "trace.windows"), 1);
	cr_expect(syms && (!strcmp(syms, "kallsyms") || !strcmp(syms, "cache")),
		  "Debian's vmlinux has no symbol table: %s", syms ? syms : "(none)");
	/* The loop alone: getpid's kernel path, and 11 user instructions (+45 once). */
	cr_expect(k_off >= 250 && k_off <= 400, "kernel instructions per getpid: %.2f", k_off);
	u = jdouble(off, "trace.per_iter.user");
	cr_expect(u >= 10.5 && u <= 12, "user instructions per getpid: %.2f", u);
	cr_expect_gt(sym_per_iter(off, "entry_SYSCALL_64_after_hwframe"), 10);
	cr_expect_gt(sym_per_iter(off, "entry_SYSCALL_64"), 1);
	cr_expect_gt(sym_per_iter(off, "do_syscall_64"), 10);
	cr_expect_gt(sym_per_iter(off, "__x64_sys_getpid"), 2);
	cr_expect_eq(sym_per_iter(off, "[unknown kernel]"), 0, "kernel code without a symbol");

	/* PTI: the CR3 switches on entry and exit, in every call. */
	on = trace_getpid("on.jsonl", "pti=on");
	cr_expect_str_eq(jstr(on, "guest.config.pti"), "on", "as Linux reports it");
	cr_expect_str_eq(jstr(on, "trace.kernel_symbols"), "cache", "the first trace filled it");
	k_on = jdouble(on, "trace.per_iter.kernel");
	pti_off = sym_per_iter(off, "entry_SYSCALL_64") +
		  sym_per_iter(off, "syscall_return_via_sysret");
	pti_on = sym_per_iter(on, "entry_SYSCALL_64") +
		 sym_per_iter(on, "syscall_return_via_sysret");
	cr_expect_gt(k_on, k_off, "pti=on %.2f, off %.2f kernel instructions per getpid", k_on,
		     k_off);
	cr_expect(pti_on - pti_off >= 4 && pti_on - pti_off <= 40,
		  "PTI's entry and exit per call: %.2f -> %.2f", pti_off, pti_on);
	json_object_put(off);
	json_object_put(on);
}

/*
 * A program without markers on Linux: the window from its ELF entry point
 * (_start, matched by address and bytes) to /init's return from waitpid,
 * so it holds the program, its page faults and its exit.  One boot.
 */
Test(trace_linux, unmarked_program_is_traced_whole)
{
	static const char prog[] = EL_BINARY_DIR "/guest/examples/touch-pages";
	char out[200];
	struct el_proc p;
	struct json_object *rec, *syms;
	int64_t start = 0, faults = 0;

	need_linux();
	cr_assert(!access(prog, X_OK), "%s is not built (guest/examples/)", prog);
	setenv("ENTRYLAB_KSYMS_CACHE", EL_BINARY_DIR "/tests/ksyms-cache", 1);
	snprintf(out, sizeof(out), "%s", tmp_output("whole.jsonl"));
	entrylab(&p, "trace", "--guest", "linux", "-o", out, "--exec", prog, NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "linux: the window is the whole program"), "summary:\n%s", p.out);
	proc_free(&p);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_assert_str_eq(jstr(rec, "status"), "ok", "%s", jstr(rec, "detail"));
	cr_expect_str_eq(jstr(rec, "region.scope"), "whole-program");
	cr_expect_str_eq(jstr(rec, "trace.window"), "entry");
	cr_expect_eq(jdouble(rec, "trace.windows"), 1);
	cr_expect_gt(jdouble(rec, "trace.user"), 1000);
	/* 1024 faults on the zero page: Linux's fault path is hundreds of instructions each. */
	cr_expect_gt(jdouble(rec, "trace.kernel"), 1024 * 100);
	cr_expect(!jget(rec, "trace.per_iter"), "no -n: totals only");
	syms = jget(rec, "trace.symbols");
	for (size_t i = 0; syms && i < json_object_array_length(syms); i++) {
		struct json_object *s = json_object_array_get_idx(syms, i);

		if (!strcmp(jstr(s, "name"), "_start"))
			start = json_object_get_int64(jget(s, "count"));
		if (!strcmp(jstr(s, "name"), "exc_page_fault"))
			faults = json_object_get_int64(jget(s, "count"));
	}
	cr_expect_gt(start, 0, "the window opens at the entry point, _start");
	cr_expect_gt(faults, 1024, "exc_page_fault: %lld", (long long)faults);
	json_object_put(rec);
}
