/*
 * Boot the guest through `entrylab run` and check the boot record: the
 * fields results/README.md documents, and that CPU feature toggles reach the guest.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "harness.h"

TestSuite(boot, .timeout = 600);

static unsigned long long hexval(struct json_object *rec, const char *path)
{
	const char *s = jstr(rec, path);

	cr_assert(s, "%s missing", path);
	cr_assert(!strncmp(s, "0x", 2), "%s is not hex: %s", path, s);
	return strtoull(s, NULL, 16);
}

Test(boot, record_fields)
{
	struct el_proc p;
	const char *out = tmp_output("boot.jsonl");
	struct json_object *rec;
	static const char *const keys[] = {"pti", "pcid", "invpcid", "pge", "global", "ret",
					   "irq_return", "vsyscall", "vdso"};
	size_t i;

	entrylab(&p, "run", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "entrylab run exited %d: %s", p.status, p.err);
	cr_assert_eq(record_count(out), 1);
	rec = last_record(out);
	cr_assert(rec, "no record in %s", out);
	cr_expect_str_eq(jstr(rec, "schema"), "entrylab.run/1");
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect_eq(json_object_get_int(jget(rec, "guest.exit_status")), 0);
	cr_expect(jget(rec, "guest.cpuid.pcid"), "guest.cpuid.pcid missing");
	cr_expect(jget(rec, "guest.selfcheck.passed") &&
		  json_object_get_boolean(jget(rec, "guest.selfcheck.passed")),
		  "guest self-check did not pass");
	for (i = 0; i < EL_ARRAY_SIZE(keys); i++) {
		char path[64];

		snprintf(path, sizeof(path), "guest.config.%s", keys[i]);
		cr_expect(jstr(rec, path), "%s missing", path);
	}
	/* Long mode with paging: CR0.PG and PE, CR4.PAE, EFER.LMA. */
	cr_expect_eq(hexval(rec, "guest.cr0") & 0x80000001ull, 0x80000001ull);
	cr_expect(hexval(rec, "guest.cr4") & (1u << 5), "CR4.PAE clear");
	cr_expect(hexval(rec, "guest.efer") & (1u << 10), "EFER.LMA clear");
	cr_expect(!strcmp(jstr(rec, "host.kvm"), "nested") || !strcmp(jstr(rec, "host.kvm"), "native"),
		  "host.kvm is %s", jstr(rec, "host.kvm"));
	cr_expect(strstr(p.out, "entrylab run boot: ok"), "summary missing");
	json_object_put(rec);
	proc_free(&p);
}

Test(boot, no_pge)
{
	struct el_proc p;
	const char *out = tmp_output("nopge.jsonl");
	struct json_object *rec;

	entrylab(&p, "run", "--cpu", "host,-pge", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "exit %d: %s", p.status, p.err);
	rec = last_record(out);
	cr_assert(rec);
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect(!json_object_get_boolean(jget(rec, "guest.cpuid.pge")), "guest saw PGE");
	cr_expect(!json_object_get_boolean(jget(rec, "guest.vcpu_cpuid.pge")), "KVM kept PGE");
	cr_expect_eq(hexval(rec, "guest.cr4") & (1u << 7), 0, "CR4.PGE set without CPUID PGE");
	cr_expect_str_eq(jstr(rec, "guest.config.pge"), "off");
	json_object_put(rec);
	proc_free(&p);
}

Test(boot, with_pge)
{
	struct el_proc p;
	const char *out = tmp_output("pge.jsonl");
	struct json_object *rec;

	entrylab(&p, "run", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "exit %d: %s", p.status, p.err);
	rec = last_record(out);
	cr_assert(rec);
	if (!json_object_get_boolean(jget(rec, "guest.vcpu_cpuid.pge")))
		cr_skip_test("this host's KVM does not offer PGE");
	cr_expect(json_object_get_boolean(jget(rec, "guest.cpuid.pge")));
	cr_expect_neq(hexval(rec, "guest.cr4") & (1u << 7), 0, "CR4.PGE clear despite PGE");
	cr_expect_str_eq(jstr(rec, "guest.config.pge"), "on");
	json_object_put(rec);
	proc_free(&p);
}

Test(boot, repeat_appends)
{
	struct el_proc p;
	const char *out = tmp_output("repeat.jsonl");

	entrylab(&p, "run", "-r", "2", "-o", out, NULL);
	cr_assert_eq(p.status, 0, "exit %d: %s", p.status, p.err);
	cr_expect_eq(record_count(out), 2, "-r 2 must write two records");
	proc_free(&p);
	entrylab(&p, "run", "-o", out, NULL);
	cr_expect_eq(record_count(out), 3, "records are appended, earlier ones kept");
	proc_free(&p);
}

Test(boot, pcid_refused_without_host_pcid)
{
	struct el_proc p;
	const char *out = tmp_output("pcid.jsonl");
	struct json_object *rec;

	entrylab(&p, "run", "-o", out, NULL);
	rec = last_record(out);
	cr_assert(rec);
	if (json_object_get_boolean(jget(rec, "guest.vcpu_cpuid.pcid")))
		cr_skip_test("this host offers PCID; the refusal path needs a host without it");
	json_object_put(rec);
	proc_free(&p);

	entrylab(&p, "run", "--cpu", "host,+pcid", "-o", out, NULL);
	cr_expect_eq(p.status, 121, "want exit 121 (unsupported), got %d", p.status);
	cr_expect(strstr(p.err, "pcid"), "message does not name pcid: %s", p.err);
	cr_expect(strstr(p.err, "CPUID.01H:ECX[17]"), "message does not name the bit: %s", p.err);
	proc_free(&p);
}

/*
 * The nested runner, forced: the same command inside a QEMU TCG VM with
 * nested SVM, records brought back, CPUID toggles effective there.
 */
Test(boot, nested_runner_forced)
{
	struct el_proc p;
	const char *out = tmp_output("nested.jsonl");
	struct json_object *rec;

	setenv("ENTRYLAB_FORCE_NESTED", "1", 1);
	entrylab(&p, "run", "--cpu", "host,-pge", "-o", out, NULL);
	unsetenv("ENTRYLAB_FORCE_NESTED");
	cr_assert_eq(p.status, 0, "exit %d: %s", p.status, p.err);
	cr_expect(strstr(p.err, "QEMU TCG"), "the nested runner must announce itself: %s", p.err);
	rec = last_record(out);
	cr_assert(rec, "no record came back from the nested VM");
	cr_expect_str_eq(jstr(rec, "host.kvm"), "nested");
	cr_expect(!json_object_get_boolean(jget(rec, "guest.cpuid.pge")));
	cr_expect_eq(hexval(rec, "guest.cr4") & (1u << 7), 0);
	json_object_put(rec);
	proc_free(&p);

	entrylab(&p, "run", "--no-nested", "--cpu", "host,-pge", "-o", out, NULL);
	cr_expect(p.status == 121 || p.status == 0,
		  "--no-nested: runs on usable KVM (0) or refuses (121), got %d", p.status);
	proc_free(&p);
}
