/*
 * Address spaces: mmcheck (tests/guest/mmcheck*.c: mremap and
 * the vDSO following it, process_vm_readv/writev, fork's copies and
 * MAP_SHARED, /proc/self/smaps and status) in every entry variant, pti
 * off/on x entry.ret iret/sysret x entry.irq_return direct/trampoline:
 * moving or unmapping [vdso] must not break the SYSRET trampoline, and
 * fork must build correct PTI user PGDs.  No address space may free other
 * frames than it counted (mm_put's check), no syscall may be unknown.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define GUEST_BIN EL_BINARY_DIR "/guest/"

/* Criterion copies parameters into a re-executed child: no pointers in them. */
struct mm_variant {
	char pti[4], ret[8], irq_return[12];
};

ParameterizedTestParameters(mm, mmcheck)
{
	static struct mm_variant v[8];
	static const char *const ptis[] = {"off", "on"}, *const rets[] = {"iret", "sysret"};
	static const char *const irqs[] = {"direct", "trampoline"};
	size_t n = 0;

	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 2; j++)
			for (size_t k = 0; k < 2; k++, n++) {
				snprintf(v[n].pti, sizeof(v[n].pti), "%s", ptis[i]);
				snprintf(v[n].ret, sizeof(v[n].ret), "%s", rets[j]);
				snprintf(v[n].irq_return, sizeof(v[n].irq_return), "%s", irqs[k]);
			}
	return cr_make_param_array(struct mm_variant, v, n);
}

ParameterizedTest(struct mm_variant *v, mm, mmcheck, .timeout = 300)
{
	char append[128], name[64];
	const char *argv[] = {EL_ENTRYLAB, "run", "--append", append, "-o", NULL, "--exec",
			      GUEST_BIN "mmcheck", NULL};
	struct json_object *rec;
	struct el_proc p;

	snprintf(append, sizeof(append), "pti=%s entry.ret=%s entry.irq_return=%s", v->pti,
		 v->ret, v->irq_return);
	snprintf(name, sizeof(name), "mmcheck-%s-%s-%s.jsonl", v->pti, v->ret, v->irq_return);
	argv[5] = tmp_output(name);
	cr_log_info("configuration: %s", append);
	proc_run(&p, argv);
	cr_expect_eq(p.status, 0, "[%s] mmcheck exit %d:\n%s%s", append, p.status, p.out, p.err);
	cr_expect(strstr(p.out, "mmcheck: ") && !strstr(p.out, "FAIL"), "[%s]\n%s", append, p.out);
	cr_expect(!strstr(p.out, "mm: address space") && !strstr(p.err, "mm: address space"),
		  "[%s] an address space freed frames it did not count:\n%s%s", append, p.out,
		  p.err);
	rec = last_record(argv[5]);
	cr_assert(rec, "[%s] no record", append);
	cr_expect_eq(json_object_get_int64(jget(rec, "guest.unknown_syscalls")), 0,
		     "[%s] unknown syscalls", append);
	json_object_put(rec);
	proc_free(&p);
}

/* Without a vDSO the checks that need one skip; the rest must pass. */
Test(mm, mmcheck_without_vdso, .timeout = 300)
{
	struct el_proc p;

	entrylab(&p, "run", "--append", "vdso=off entry.ret=sysret", "-o",
		 tmp_output("mmcheck-novdso.jsonl"), "--exec", GUEST_BIN "mmcheck", NULL);
	cr_expect_eq(p.status, 0, "mmcheck exit %d:\n%s%s", p.status, p.out, p.err);
	cr_expect(!strstr(p.out, "FAIL"), "%s", p.out);
	proc_free(&p);
}
