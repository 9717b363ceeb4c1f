/*
 * The tracer against counts known in advance: tracecheck's hand-written
 * regions (tests/guest/tracecheck.h: a dec/jnz loop, and a loop whose
 * second instruction crosses a page boundary, QEMU's phantom case), and the
 * irq bench, whose interrupt path stores to the APIC twice (ICR, EOI) by
 * MMIO, which QEMU re-runs outside the block it was translated in.  Only
 * QEMU is needed, never /dev/kvm or the nested runner.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../guest/tracecheck.h"

#define TRACECHECK EL_BINARY_DIR "/guest/tracecheck"

TestSuite(trace_exact, .timeout = 300);

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

/* `entrylab trace [--listing] ARGS...` into its own file; the record, stdout in *out. */
static struct json_object *trace(const char *name, bool listing, char **out, const char *a0,
				 const char *a1, const char *a2, const char *a3)
{
	char path[200];
	struct el_proc p;
	struct json_object *rec;

	snprintf(path, sizeof(path), "%s", tmp_output(name));
	if (listing)
		entrylab(&p, "trace", "-o", path, "--listing", a0, a1, a2, a3, NULL);
	else
		entrylab(&p, "trace", "-o", path, a0, a1, a2, a3, NULL);
	cr_assert_eq(p.status, 0, "exit %d\n%s%s", p.status, p.out, p.err);
	rec = last_record(path);
	cr_assert(rec, "no record in %s", path);
	cr_assert_str_eq(jstr(rec, "status"), "ok");
	if (out)
		*out = strdup(p.out);
	proc_free(&p);
	return rec;
}

Test(trace_exact, hand_written_loop)
{
	struct json_object *a, *b;

	need_qemu();
	a = trace("loop1000.jsonl", false, NULL, "--exec", TRACECHECK, "loop", "1000");
	b = trace("loop1.jsonl", false, NULL, "--exec", TRACECHECK, "loop", "1");
	cr_expect_eq(jint(a, "trace.user"), TC_LOOP_USER(1000), "2n + 4 user instructions");
	cr_expect_eq(jint(b, "trace.user"), TC_LOOP_USER(1));
	cr_expect_eq(jint(a, "trace.kernel"), jint(b, "trace.kernel"),
		     "the markers' kernel part does not depend on n");
	cr_expect_eq(jint(a, "region.syscalls"), 0, "the guest's own count: no syscall inside");
	json_object_put(a);
	json_object_put(b);
}

Test(trace_exact, page_crossing_instruction)
{
	char *out = NULL;
	struct json_object *a;

	need_qemu();
	a = trace("cross.jsonl", true, &out, "--exec", TRACECHECK, "cross", "1000");
	cr_expect_eq(jint(a, "trace.user"), TC_CROSS_USER(1000),
		     "4n + 6: the crossing instruction and the one before it, every iteration");
	/* Both listed whole, each run n times: neither a .byte phantom nor lost. */
	cr_expect(strstr(out, "movq %rdx, %rax"), "the instruction before the crossing one:\n%s",
		  out);
	cr_expect(strstr(out, "addq $0x1000, %rcx"), "the crossing instruction:\n%s", out);
	cr_expect(!strstr(out, ".byte"), "a partial instruction is listed:\n%s", out);
	free(out);
	json_object_put(a);
}

/*
 * Counts of the listed instructions under "[kernel] SYM" headings; each must
 * be `want`.  Returns how many there were; *seen_text says whether one of
 * them contains `text`.
 */
/*
 * The kernel-mode listing lines whose instruction text contains `text`
 * (e.g. an APIC register offset): their execution counts summed, and how
 * many lines there are.  Where the store sits (which function, inlined or
 * not) is the kernel's business; how often it ran is the tracer's.
 */
static uint64_t listing_text_total(const char *out, const char *text, unsigned *lines)
{
	uint64_t total = 0;
	bool kernel = false;

	*lines = 0;
	for (const char *l = strstr(out, "\nlisting:"); l && *l; l = strchr(l + 1, '\n')) {
		const char *end = strchr(l + 1, '\n'), *hit = strstr(l + 1, text);
		unsigned long long count;

		if (l[1] == '[') {
			kernel = !strncmp(l + 1, "[kernel] ", 9);
			continue;
		}
		if (!kernel || !hit || (end && hit > end) || sscanf(l + 1, " %llu", &count) != 1)
			continue;
		total += count;
		++*lines;
	}
	return total;
}

Test(trace_exact, mmio_stores_of_the_interrupt_path)
{
	struct json_object *k50, *k100, *k200;
	char *out = NULL;
	int64_t d1, d2;
	unsigned lines;

	need_qemu();
	k100 = trace("irq100.jsonl", true, &out, "irq", "100", "50", NULL);
	cr_expect_eq(jint(k100, "region.interrupts"), 100);
	/*
	 * One ICR store and one EOI store per interrupt, each counted once,
	 * nothing doubled: the ICR store of the syscall that starts a round
	 * and of the handler that sends the next IPI add up to 100, the EOI
	 * stores to 100.
	 */
	cr_expect_eq(listing_text_total(out, "0x300(", &lines), 100,
		     "ICR stores (offset 0x300) in the listing:\n%s", out);
	cr_expect_gt(lines, 0, "the ICR store (offset 0x300) is not listed:\n%s", out);
	cr_expect_eq(listing_text_total(out, "0xb0(", &lines), 100,
		     "EOI stores (offset 0xb0) in the listing:\n%s", out);
	cr_expect_gt(lines, 0, "the EOI store (offset 0xb0) is not listed:\n%s", out);
	free(out);
	/* Same number of calls (2), different numbers of interrupts: a stable per-interrupt cost. */
	k50 = trace("irq50.jsonl", false, NULL, "irq", "50", "25", NULL);
	k200 = trace("irq200.jsonl", false, NULL, "irq", "200", "100", NULL);
	d1 = jint(k100, "trace.kernel") - jint(k50, "trace.kernel");
	d2 = jint(k200, "trace.kernel") - jint(k100, "trace.kernel");
	cr_expect_eq(d1 % 50, 0, "50 more interrupts cost %lld", (long long)d1);
	cr_expect_eq(d2, 2 * d1, "per interrupt: %lld then %lld", (long long)d1 / 50,
		     (long long)d2 / 100);
	json_object_put(k50);
	json_object_put(k100);
	json_object_put(k200);
}

Test(trace_exact, rewritten_code_listed_as_it_ran)
{
	char *out = NULL;
	struct json_object *a;

	need_qemu();
	a = trace("rewrite.jsonl", true, &out, "--exec", TRACECHECK, "rewrite", "1");
	cr_expect_eq(jint(a, "trace.user"), TC_REWRITE_USER);
	/* One address, two instructions: each listed with its own bytes, once each. */
	cr_expect(strstr(out, "movl $1, %eax") && strstr(out, "movl $2, %eax"),
		  "both versions of the rewritten instruction must be listed:\n%s", out);
	free(out);
	json_object_put(a);
}
