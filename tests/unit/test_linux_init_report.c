/*
 * entrylab's /init for Linux: its BOOT and RUN reports (guest/linux/report.c),
 * the region page checked like any report field, and the chunks of its
 * KSYMS frames (ksyms_chunk.c).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "guest/linux/ksyms_chunk.h"
#include "guest/linux/report.h"

static struct el_linux_region good_page(void)
{
	struct el_linux_region p = {.magic = EL_LINUX_REGION_MAGIC, .begins = 1, .ends = 1,
				    .tsc_begin = 1000, .tsc_end = 5000, .iterations = 2000};

	return p;
}

Test(linux_init_report, boot_from_facts)
{
	static struct linit_facts f;
	struct el_report r;

	memset(f.config, EL_CONFIG_UNSET, sizeof(f.config));
	f.cpuid = 0x1efc;
	f.config[EL_CFG_PTI] = EL_ON;
	f.config[EL_CFG_VSYSCALL] = EL_VSYSCALL_NONE;
	linit_report_boot(&r, &f);
	cr_expect_eq(r.magic, EL_REPORT_MAGIC);
	cr_expect_eq(r.abi_version, EL_ABI_VERSION);
	cr_expect_eq(r.size, sizeof(r));
	cr_expect_eq(r.kind, EL_REPORT_BOOT);
	cr_expect_eq(r.cpuid, 0x1efcull);
	cr_expect_eq(r.cr0 | r.cr4 | r.efer, 0, "Linux does not show them");
	cr_expect_eq(r.config[EL_CFG_PTI], EL_ON);
	cr_expect_eq(r.config[EL_CFG_GLOBAL], EL_CONFIG_UNSET);
	cr_expect_eq(r.config[EL_CONFIG_MAX - 1], EL_CONFIG_UNSET);
	for (unsigned i = 0; i < EL_CONFIG_MAX; i++)
		cr_expect_eq(r.requested[i], EL_CONFIG_UNSET);
	cr_expect_eq(r.flags, 0);
}

Test(linux_init_report, region_from_a_good_page)
{
	struct el_linux_region p = good_page();
	struct el_region g;

	cr_assert_null(linit_region_from_page(&p, &g));
	cr_expect_eq(g.valid, 1);
	cr_expect_eq(g.iterations, 2000);
	cr_expect_eq(g.tsc_begin, 1000);
	cr_expect_eq(g.tsc_end, 5000);
	cr_expect_eq(g.tsc_khz, 0, "the host knows it");
	cr_expect_eq(g.unknown, EL_REGION_UNKNOWN_ALL);
	cr_expect_eq(g.syscalls | g.page_faults | g.interrupts, 0);
}

Test(linux_init_report, bad_pages_give_no_region)
{
	struct el_linux_region p[5];
	struct el_region g;

	for (int i = 0; i < 5; i++)
		p[i] = good_page();
	p[0].magic = 0;
	p[1].magic = 0x12345678;
	p[2].begins = 0;
	p[3].ends = 0;
	p[4].tsc_end = 999; /* a BEGIN after the last END */
	for (int i = 0; i < 5; i++) {
		memset(&g, 0xa5, sizeof(g));
		cr_expect_not_null(linit_region_from_page(&p[i], &g), "page %d", i);
		cr_expect_eq(g.valid, 0, "page %d", i);
		cr_expect_eq(g.tsc_begin | g.tsc_end | g.iterations, 0, "page %d", i);
		cr_expect_eq(g.unknown, EL_REGION_UNKNOWN_ALL, "page %d", i);
	}
}

Test(linux_init_report, run_keeps_boot_and_checks_counters)
{
	struct el_report boot, r;
	struct el_linux_region p = good_page();
	struct el_counter c[2] = {{.config = 0x3003c, .value = 7, .status = EL_COUNTER_COUNTED},
				  {.config = 0x100c0, .status = EL_COUNTER_NOT_SUPPORTED}};
	struct el_counter m[2] = {{.config = 0x3003c, .value = 3, .status = EL_COUNTER_COUNTED},
				  {.config = 0x100c0, .status = EL_COUNTER_NOT_SUPPORTED}};

	memset(&boot, 0, sizeof(boot));
	boot.kind = EL_REPORT_BOOT;
	boot.cpuid = 42;
	boot.config[EL_CFG_PTI] = EL_ON;
	linit_report_run(&r, &boot, EL_REGION_SCOPE_MARKED, &p, NULL, c, m, 2, 137);
	cr_expect_eq(r.kind, EL_REPORT_RUN);
	cr_expect_eq(r.cpuid, 42);
	cr_expect_eq(r.region_scope, EL_REGION_SCOPE_MARKED);
	cr_expect_eq(r.config[EL_CFG_PTI], EL_ON);
	cr_expect_eq(r.exit_status, 137);
	cr_expect_eq(r.flags, EL_REPORT_EXITED);
	cr_expect_eq(r.nr_counters, 2);
	cr_expect_eq(r.counters[0].status, EL_COUNTER_COUNTED);
	cr_expect_eq(r.counters[0].value, 7);
	cr_expect_eq(r.markers[0].value, 3);
	cr_expect_eq(r.counters[1].status, EL_COUNTER_NOT_SUPPORTED);

	/* A perf ioctl of the markers failed: nothing counted is believed. */
	p.errors = 1;
	linit_report_run(&r, &boot, EL_REGION_SCOPE_MARKED, &p, NULL, c, m, 2, 0);
	cr_expect_eq(r.region.valid, 1);
	cr_expect_eq(r.counters[0].status, EL_COUNTER_NOT_COUNTED);
	cr_expect_eq(r.counters[0].value, 0);
	cr_expect_eq(r.counters[1].status, EL_COUNTER_NOT_SUPPORTED);

	/* No region: neither. */
	p = good_page();
	p.ends = 0;
	linit_report_run(&r, &boot, EL_REGION_SCOPE_MARKED, &p, NULL, c, m, 2, 0);
	cr_expect_eq(r.region.valid, 0);
	cr_expect_eq(r.region_scope, EL_REGION_SCOPE_NONE, "no region, no scope");
	cr_expect_eq(r.counters[0].status, EL_COUNTER_NOT_COUNTED);
}

Test(linux_init_report, whole_program_region)
{
	struct linit_whole w = {.tsc_exec = 1000, .tsc_wait = 9000};
	struct el_region g;

	cr_assert_null(linit_region_whole(&w, &g));
	cr_expect_eq(g.valid, 1);
	cr_expect_eq(g.tsc_begin, 1000);
	cr_expect_eq(g.tsc_end, 9000);
	cr_expect_eq(g.iterations, 0, "the host divides by -n");
	cr_expect_eq(g.tsc_khz, 0, "the host knows it");
	cr_expect_eq(g.unknown, EL_REGION_UNKNOWN_ALL);

	w.exec_errno = 2; /* ENOENT */
	w.exec_errno = 0;
	w.faults_counted = 1;
	w.page_faults = 1037;
	cr_assert_null(linit_region_whole(&w, &g));
	cr_expect_eq(g.page_faults, 1037);
	cr_expect_eq(g.unknown, EL_REGION_UNKNOWN_SYSCALLS | EL_REGION_UNKNOWN_INTERRUPTS);
	w.faults_counted = 0;
	cr_assert_null(linit_region_whole(&w, &g));
	cr_expect_eq(g.page_faults, 0);
	cr_expect_eq(g.unknown, EL_REGION_UNKNOWN_ALL, "not counted: unknown, not 0");

	w.exec_errno = 2; /* ENOENT */
	memset(&g, 0xa5, sizeof(g));
	cr_expect(strstr(linit_region_whole(&w, &g), "execve failed"));
	cr_expect_eq(g.valid, 0);
	cr_expect_eq(g.tsc_begin | g.tsc_end, 0);
	w.exec_errno = 0;
	w.tsc_exec = 0;
	cr_expect(strstr(linit_region_whole(&w, &g), "never reached"));
	w.tsc_exec = 9001;
	cr_expect_not_null(linit_region_whole(&w, &g), "a TSC going back");
	cr_expect_eq(g.valid, 0);
}

Test(linux_init_report, whole_program_run_ignores_the_page)
{
	struct el_report boot, r;
	struct el_linux_region p = good_page();
	struct linit_whole w = {.tsc_exec = 100, .tsc_wait = 900000};
	struct el_counter c[1] = {{.config = 0x3003c, .value = 7, .status = EL_COUNTER_COUNTED}};
	struct el_counter m[1] = {{.config = 0x3003c, .value = 3, .status = EL_COUNTER_COUNTED}};

	memset(&boot, 0, sizeof(boot));
	boot.kind = EL_REPORT_BOOT;
	p.errors = 3; /* the program's markers: not /init's business in whole mode */
	linit_report_run(&r, &boot, EL_REGION_SCOPE_WHOLE, &p, &w, c, m, 1, 0);
	cr_expect_eq(r.region_scope, EL_REGION_SCOPE_WHOLE);
	cr_expect_eq(r.region.valid, 1);
	cr_expect_eq(r.region.tsc_begin, 100);
	cr_expect_eq(r.region.tsc_end, 900000);
	cr_expect_eq(r.region.iterations, 0, "not the page's 2000");
	cr_expect_eq(r.counters[0].status, EL_COUNTER_COUNTED);
	cr_expect_eq(r.counters[0].value, 7);
	cr_expect_eq(r.markers[0].value, 3, "the markers' cost as for marked");

	/* No page at all: still a whole region. */
	p.magic = 0;
	linit_report_run(&r, &boot, EL_REGION_SCOPE_WHOLE, &p, &w, c, m, 1, 0);
	cr_expect_eq(r.region_scope, EL_REGION_SCOPE_WHOLE);

	/* The program never ran: nothing measured, nothing counted. */
	w.exec_errno = 13;
	linit_report_run(&r, &boot, EL_REGION_SCOPE_WHOLE, &p, &w, c, m, 1, 127);
	cr_expect_eq(r.region_scope, EL_REGION_SCOPE_NONE);
	cr_expect_eq(r.region.valid, 0);
	cr_expect_eq(r.counters[0].status, EL_COUNTER_NOT_COUNTED);
	cr_expect_eq(r.counters[0].value, 0);
	cr_expect_eq(r.exit_status, 127);
}

struct frames {
	char text[64][EL_FRAME_TEXT_MAX];
	size_t len[64];
	int n, fail_at;
};

static int collect(void *ctx, const char *text, size_t len)
{
	struct frames *f = ctx;

	if (f->n == f->fail_at || f->n == 64)
		return -1;
	memcpy(f->text[f->n], text, len);
	f->len[f->n++] = len;
	return 0;
}

Test(linux_init_ksyms, lines_whole_frames_full)
{
	static struct frames f;
	static struct linit_chunk c;
	char line[100];
	unsigned long total = 0;

	f.fail_at = -1;
	linit_chunk_init(&c, collect, &f);
	for (int i = 0; i < 1000; i++) {
		int n = snprintf(line, sizeof(line), "ffffffff81%06x T sym_%d", i * 16, i);

		cr_assert_eq(linit_chunk_line(&c, line, (size_t)n), 0);
		total += (unsigned long)n + 1;
	}
	cr_assert_eq(linit_chunk_flush(&c), 0);
	cr_expect_eq(c.lines, 1000);
	cr_expect_eq((unsigned long)f.n, c.frames);
	for (int i = 0; i < f.n; i++) {
		cr_expect_leq(f.len[i], EL_FRAME_TEXT_MAX);
		cr_expect_eq(f.text[i][f.len[i] - 1], '\n', "frame %d ends inside a line", i);
		cr_expect(!strncmp(f.text[i], "ffffffff81", 10), "frame %d starts inside a line",
			  i);
		if (i + 1 < f.n)
			cr_expect_gt(f.len[i] + 32, EL_FRAME_TEXT_MAX, "frame %d not full", i);
		total -= f.len[i];
	}
	cr_expect_eq(total, 0, "bytes lost or added");
	/* Flushing again sends nothing. */
	cr_expect_eq(linit_chunk_flush(&c), 0);
	cr_expect_eq((unsigned long)f.n, c.frames);
}

Test(linux_init_ksyms, oversized_line_and_emit_failure)
{
	static struct frames f;
	static struct linit_chunk c;
	static char big[EL_FRAME_TEXT_MAX];

	memset(big, 'a', sizeof(big));
	f.fail_at = 0;
	linit_chunk_init(&c, collect, &f);
	cr_expect_eq(linit_chunk_line(&c, big, sizeof(big)), -1,
		     "a line and its newline > a frame");
	cr_expect_eq(linit_chunk_line(&c, big, sizeof(big) - 1), 0, "exactly a frame");
	cr_expect_eq(linit_chunk_line(&c, "x", 1), -1, "the emit failed");
}
