/*
 * The eltrace plugin's window arguments (harness/trace/eltrace_window.c),
 * read as QEMU hands them over: which kind of window each set asks for, and
 * the refusals of a set that is incomplete, mixed or malformed; and how a
 * marker matches an instruction, by address and the bytes the host read.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "eltrace.h"

static int args(struct eltrace *s, char *err, size_t len, const char *const *argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(s, 0, sizeof(*s));
	err[0] = '\0';
	return eltrace_args(s, argc, (char **)argv, err, len);
}

#define ARGS(s, err, ...) args(s, err, sizeof(err), (const char *const[]){__VA_ARGS__, NULL})

Test(eltrace_window, our_kernel_marked_and_whole)
{
	struct eltrace s;
	char err[400];

	cr_assert_eq(ARGS(&s, err, "out=/t/c", "begin=0xffffffff8010dafb",
			   "end=0xffffffff8010dacf"), 0, "%s", err);
	cr_expect_eq(s.kind, WINDOW_OUT, "open=out is the default");
	cr_expect_eq(s.begin.vaddr, 0xffffffff8010dafbull);
	cr_expect_eq(s.end.vaddr, 0xffffffff8010dacfull);
	cr_expect_eq(s.begin.nbytes, 0);
	cr_expect_str_eq(s.out, "/t/c");
	cr_expect(!s.listing);

	cr_assert_eq(ARGS(&s, err, "out=/t/c", "listing=on", "begin=0x10", "end=0x20",
			   "open=user"), 0, "%s", err);
	cr_expect_eq(s.kind, WINDOW_USER);
	cr_expect(s.listing);
	cr_expect_str_eq(window_kind_names[s.kind], "user");
}

Test(eltrace_window, linux_sites_and_entry)
{
	struct eltrace s;
	char err[400];

	cr_assert_eq(ARGS(&s, err, "out=/t/c", "begin_site=0x401000", "end_site=0x401020",
			   "begin_site=0x401100"), 0, "%s", err);
	cr_expect_eq(s.kind, WINDOW_SITES);
	cr_expect_eq(s.nbegin, 2);
	cr_expect_eq(s.nend, 1);
	cr_expect_eq(s.begin.vaddr, 0x401000, "the first BEGIN site is the marker shown");

	cr_assert_eq(ARGS(&s, err, "out=/t/c", "entry=0x401bc0:f30f1efa31ed",
			   "end=0x10001234:4889c7"), 0, "%s", err);
	cr_expect_eq(s.kind, WINDOW_ENTRY);
	cr_expect_eq(s.begin.vaddr, 0x401bc0);
	cr_assert_eq(s.begin.nbytes, 6);
	cr_expect_eq(s.begin.bytes[0], 0xf3);
	cr_expect_eq(s.begin.bytes[5], 0xed);
	cr_expect_eq(s.end.vaddr, 0x10001234);
	cr_expect_eq(s.end.nbytes, 3);
	cr_expect_str_eq(window_kind_names[s.kind], "entry");
}

Test(eltrace_window, refusals_name_the_problem)
{
	const char *const *const bad[] = {
		(const char *const[]){"begin=0x10", "end=0x20", NULL},            /* no out= */
		(const char *const[]){"out=/c", NULL},                             /* no window */
		(const char *const[]){"out=/c", "begin=0x10", NULL},               /* no end */
		(const char *const[]){"out=/c", "begin_site=0x10", NULL},          /* no END site */
		(const char *const[]){"out=/c", "begin=0x10", "end=0x20", "begin_site=0x30",
				      "end_site=0x40", NULL},                      /* two windows */
		(const char *const[]){"out=/c", "entry=0x10", "end=0x20", NULL}, /* bytes */
		(const char *const[]){"out=/c", "entry=0x10:", "end=0x20", NULL},
		(const char *const[]){"out=/c", "entry=0x10:f3f", "end=0x20", NULL}, /* odd hex */
		(const char *const[]){"out=/c", "entry=0x10:zz", "end=0x20", NULL},
		(const char *const[]){"out=/c", "entry=0x10:000102030405060708090a0b0c0d0e0f10",
				      "end=0x20", NULL},                           /* 17 bytes */
		(const char *const[]){"out=/c", "entry=0xffff800000000000:90", "end=0x20", NULL},
		(const char *const[]){"out=/c", "entry=0x10:90", "begin=0x30", "end=0x20", NULL},
		(const char *const[]){"out=/c", "entry=0x10:90", "end=0x20", "open=user", NULL},
		(const char *const[]){"out=/c", "begin=0x10:90", "end=0x20", NULL}, /* OUT */
		(const char *const[]){"out=/c", "begin=0x10", "end=0x20:90", NULL},
		(const char *const[]){"out=/c", "begin=0", "end=0x20", NULL},      /* not 0 */
		(const char *const[]){"out=/c", "begin=-1", "end=0x20", NULL},
		(const char *const[]){"out=/c", "begin=0x10", "end=0x20", "open=kernel", NULL},
		(const char *const[]){"out=/c", "begin=0x10", "end=0x20", "whole=1", NULL},
		(const char *const[]){"out=/c", "begin_site=0x10", "end_site=0x20", "end=0x30",
				      NULL},
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		struct eltrace s;
		char err[400];

		cr_expect_eq(args(&s, err, sizeof(err), bad[i]), -1, "case %zu accepted", i);
		cr_expect(err[0], "case %zu: no message", i);
	}
}

static struct insn insn(uint64_t vaddr, const char *hex)
{
	struct insn e = {.vaddr = vaddr};

	for (; hex[0] && hex[1] && e.size < MAX_INSN_BYTES; hex += 2) {
		unsigned v;

		sscanf(hex, "%2x", &v);
		e.bytes[e.size++] = (uint8_t)v;
	}
	return e;
}

Test(eltrace_window, marks_match_by_address_and_bytes)
{
	struct mark entry = {.vaddr = 0x401bc0, .bytes = {0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xed},
			     .nbytes = 6};
	struct mark out = {.vaddr = 0xffffffff8010dafb};
	struct insn endbr = insn(0x401bc0, "f30f1efa"), other = insn(0x401bc0, "31ed");
	struct insn elsewhere = insn(0x401bc4, "f30f1efa"), outl = insn(0xffffffff8010dafb, "ef");

	cr_expect(mark_matches(&entry, &endbr), "the file's bytes start with the instruction's");
	cr_expect(!mark_matches(&entry, &other), "another program's code at the same address");
	cr_expect(!mark_matches(&entry, &elsewhere));
	cr_expect(mark_matches(&out, &outl), "a mark without bytes matches by address");
	cr_expect(!mark_matches(&out, &endbr));
}

Test(eltrace_window, sites_are_syscalls_below_user_end)
{
	uint64_t sites[] = {0x401000};
	struct insn sys = insn(0x401000, "0f05"), nop = insn(0x401000, "6690");

	cr_expect(insn_is_site(&sys, sites, 1));
	cr_expect(!insn_is_site(&nop, sites, 1), "a site is a SYSCALL, 0f 05");
}
