/*
 * Interrupts: KVM's in-kernel LAPIC and EL_SYS_SELF_IPI.  The irq
 * benchmark's chain counts exactly COUNT user-mode interrupts with no exit
 * to the VMM, through x2APIC MSRs and through the xAPIC page; the register
 * checker sees nothing change across self-IPIs; a bad count is -EINVAL.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

TestSuite(irq, .timeout = 300);

static struct json_object *irq_run(const char *cpu, const char *out)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", tmp_output(out), "--cpu", cpu, "irq",
			      "600", "40", NULL};
	struct el_proc p;
	struct json_object *rec;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "irq (--cpu %s): exit %d\n%s\n%s", cpu, p.status, p.out, p.err);
	rec = last_record(argv[3]);
	cr_assert(rec, "irq: no record");
	cr_expect_str_eq(jstr(rec, "status"), "ok");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.interrupts")), 600,
		     "region.interrupts must be the benchmark's COUNT");
	cr_expect_eq(json_object_get_int64(jget(rec, "region.syscalls")), 15,
		     "one EL_SYS_SELF_IPI per batch of 40");
	/* The in-kernel APIC handles the IPIs and EOIs: nothing reaches the VMM. */
	cr_expect_eq(json_object_get_int64(jget(rec, "region.exits")), 0,
		     "VM exits to the VMM inside the region");
	proc_free(&p);
	return rec;
}

Test(irq, bench_x2apic)
{
	struct json_object *rec = irq_run("host", "irq-x2apic.jsonl");
	const char *console = jstr(rec, "console");

	if (json_object_get_boolean(jget(rec, "guest.cpuid.x2apic")))
		cr_expect(console && strstr(console, "apic: x2APIC"), "x2APIC not used:\n%s",
			  console);
	json_object_put(rec);
}

Test(irq, bench_xapic)
{
	struct json_object *rec = irq_run("host,-x2apic", "irq-xapic.jsonl");
	const char *console = jstr(rec, "console");

	cr_expect(console && strstr(console, "apic: xAPIC"), "xAPIC not used:\n%s", console);
	json_object_put(rec);
}

Test(irq, regcheck_self_ipi)
{
	const char *argv[] = {EL_ENTRYLAB, "run", "-o", tmp_output("regcheck-ipi.jsonl"), "--exec",
			      GUEST_BIN "regcheck", "-n", "40", "--self-ipi=8", NULL};
	struct el_proc p;

	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "regcheck --self-ipi: exit %d\n%s\n%s", p.status, p.out, p.err);
	cr_expect(strstr(p.out, "PASS: regcheck.self_ipi"), "%s", p.out);
	proc_free(&p);
}
