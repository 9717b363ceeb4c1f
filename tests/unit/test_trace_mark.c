/*
 * The listing's marker column (harness/trace/trace_mark.c): the entry
 * code's landmarks recognised from their bytes, with prefixes and REX, and
 * look-alike encodings left unmarked.
 */
#include <criterion/criterion.h>

#include "trace.h"

static const char *mark(const char *hex)
{
	uint8_t b[16];
	unsigned n = 0;

	for (; hex[0] && hex[1] && n < sizeof(b); hex += 2) {
		unsigned v;

		cr_assert_eq(sscanf(hex, "%2x", &v), 1);
		b[n++] = (uint8_t)v;
	}
	return trace_insn_mark(b, n);
}

Test(trace_mark, entry_landmarks)
{
	cr_expect_str_eq(mark("0f22dc"), "CR3", "mov %%rsp, %%cr3");
	cr_expect_str_eq(mark("440f22d8"), "CR3", "mov %%rax, %%cr3 behind a REX prefix");
	cr_expect_str_eq(mark("0f22e0"), "CR", "mov %%rax, %%cr4");
	cr_expect_str_eq(mark("0f01f8"), "SWAPGS");
	cr_expect_str_eq(mark("480f07"), "SYSRET", "sysretq");
	cr_expect_str_eq(mark("0f05"), "SYSCALL");
	cr_expect_str_eq(mark("48cf"), "IRET", "iretq");
	cr_expect_str_eq(mark("0f30"), "WRMSR");
	cr_expect_str_eq(mark("660f388201"), "INVPCID", "invpcid (%%rcx), %%rax");
	cr_expect_str_eq(mark("0f013f"), "INVLPG", "invlpg (%%rdi)");
	cr_expect_str_eq(mark("0faee8"), "LFENCE");
	cr_expect_str_eq(mark("0faef0"), "MFENCE");
	cr_expect_str_eq(mark("0f31"), "RDTSC");
	cr_expect_str_eq(mark("0f01f9"), "RDTSCP");
	cr_expect_str_eq(mark("ef"), "OUT", "outl %%eax, %%dx");
}

Test(trace_mark, look_alikes_unmarked)
{
	cr_expect_str_eq(mark("0f20d8"), "", "mov %%cr3, %%rax reads CR3");
	cr_expect_str_eq(mark("0f388201"), "", "INVPCID needs its 66 prefix");
	cr_expect_str_eq(mark("0fae38"), "", "clflush (%%rax) is 0f ae /7 with memory");
	cr_expect_str_eq(mark("4889e5"), "", "mov %%rsp, %%rbp");
	cr_expect_str_eq(mark("c3"), "", "ret");
	cr_expect_str_eq(mark("0f"), "", "a lone escape byte");
	cr_expect_str_eq(mark(""), "");
}
