/*
 * The VMM confined (vmm/confine.h): the record shows what the VMM process
 * read back from its own /proc/self/status after confinement, and a
 * forbidden syscall (the test-only ENTRYLAB_TEST_SECCOMP_VIOLATE hook)
 * ends the run as a vmm-error naming the syscall.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(jail, .timeout = 300);

static int jint(struct json_object *rec, const char *path)
{
	struct json_object *v = jget(rec, path);

	cr_assert(v, "record has no %s", path);
	return json_object_get_int(v);
}

Test(jail, record_shows_the_confinement)
{
	struct el_proc p;
	const char *out = tmp_output("jail.jsonl");
	struct json_object *rec, *fds;

	entrylab(&p, "run", "-o", out, NULL);
	cr_expect_eq(p.status, 0, "plain run under confinement: exit %d\n%s", p.status, p.err);
	rec = last_record(out);
	cr_assert(rec, "no record");
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect(json_object_get_boolean(jget(rec, "vmm.jail.applied")));
	cr_expect_str_eq(jstr(rec, "vmm.jail.seccomp"), "filter");
	cr_expect_eq(jint(rec, "vmm.jail.seccomp_mode"), 2, "Seccomp: in /proc/self/status");
	cr_expect_eq(jint(rec, "vmm.jail.no_new_privs"), 1);
	cr_expect_gt(jint(rec, "vmm.jail.syscalls_allowed"), 10);
	cr_expect_str_eq(jstr(rec, "vmm.jail.cap_eff"), "0000000000000000");
	/* Root (here or inside the nested runner's VM) is dropped; others keep their uid. */
	if (geteuid() == 0 || nested_mode())
		cr_expect_neq(jint(rec, "vmm.jail.uid"), 0, "the VMM still runs as root");
	else
		cr_expect_eq(jint(rec, "vmm.jail.uid"), (int)getuid());
	/* 0-2, /dev/kvm, the VM, the vCPU, the result pipe: nothing else. */
	fds = jget(rec, "vmm.jail.fds");
	cr_assert(fds && json_object_is_type(fds, json_type_array));
	cr_expect_leq(json_object_array_length(fds), 7, "fds left open: %s",
		      json_object_to_json_string(fds));
	cr_expect(!strncmp(jstr(rec, "vmm.output"), "write(2)", 8),
		  "a confined VMM must not use io_uring: %s", jstr(rec, "vmm.output"));
	json_object_put(rec);
	proc_free(&p);
}

Test(jail, forbidden_syscall_is_a_named_vmm_error)
{
	struct el_proc p;
	const char *out = tmp_output("violate.jsonl");
	struct json_object *rec;
	const char *detail;

	setenv("ENTRYLAB_TEST_SECCOMP_VIOLATE", "1", 1);
	entrylab(&p, "run", "-o", out, NULL);
	unsetenv("ENTRYLAB_TEST_SECCOMP_VIOLATE");
	cr_expect_eq(p.status, 125, "want 125 (vmm-error), got %d\n%s", p.status, p.err);
	cr_expect(strstr(p.err, "killed by its seccomp filter (syscall 41)"),
		  "the trap's own message is missing: %s", p.err);
	rec = last_record(out);
	cr_assert(rec, "no record for a run the filter stopped");
	cr_expect_str_eq(jstr(rec, "status"), "vmm-error");
	detail = jstr(rec, "detail");
	cr_expect(detail && strstr(detail, "seccomp filter") && strstr(detail, "41 = socket"),
		  "detail must name the filter and the syscall: %s", detail);
	json_object_put(rec);
	proc_free(&p);
}

Test(jail, vmm_process_crash_is_a_vmm_error_naming_the_signal)
{
	struct el_proc p;
	const char *out = tmp_output("segv.jsonl");
	struct json_object *rec;
	const char *detail;

	setenv("ENTRYLAB_TEST_VMM_SEGV", "1", 1);
	entrylab(&p, "run", "-o", out, NULL);
	unsetenv("ENTRYLAB_TEST_VMM_SEGV");
	cr_expect_eq(p.status, 125, "want 125 (vmm-error), not 139; got %d\n%s", p.status, p.err);
	rec = last_record(out);
	cr_assert(rec, "no record for a VMM process that crashed");
	cr_expect_str_eq(jstr(rec, "status"), "vmm-error");
	detail = jstr(rec, "detail");
	cr_expect(detail && strstr(detail, "signal 11, SIGSEGV"), "detail must name the signal: %s",
		  detail);
	json_object_put(rec);
	proc_free(&p);
}
