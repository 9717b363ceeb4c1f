/*
 * What `entrylab trace` reads back: the eltrace plugin's output file
 * (well-formed, truncated, garbled) and the guest console's boot report,
 * vDSO placement, exit and panic lines.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/knobs.h"
#include "trace.h"

static const char good[] =
	"eltrace 2\n"
	"window out\n"
	"markers ffffffff8010dafb ffffffff8010dacf\n"
	"begun 1 1\n"
	"windows 1 0\n"
	"executed 56250099\n"
	"I\t4010b0\t100\t3\t2\t31c0\txorl %eax, %eax\n"
	"I\tffffffff80101480\t101\t7\t3\t0f01f8\tswapgs \n"
	"I\tffffffff8010db26\t9\t0\t3\tf348ab\t-\n";

/* The header lines before the instructions: window KIND, begun B O, windows W OPEN. */
#define HDR(kind, begun, opened, windows, open)                                           \
	"eltrace 2\nwindow " kind "\nmarkers 1 2\nbegun " #begun " " #opened "\nwindows "      \
	#windows " " #open "\nexecuted 5\n"

static int parse(const char *text, struct el_trace_data *d, char *err, size_t len)
{
	return trace_parse(text, strlen(text), d, err, len);
}

Test(trace_parse, well_formed)
{
	struct el_trace_data d;
	char err[256] = "";

	cr_assert_eq(parse(good, &d, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(d.window, EL_TRACE_WINDOW_OUT);
	cr_expect_eq(d.begin, 0xffffffff8010dafbull);
	cr_expect_eq(d.end, 0xffffffff8010dacfull);
	cr_expect_eq(d.begun, 1);
	cr_expect_eq(d.opened, 1);
	cr_expect_eq(d.windows, 1);
	cr_expect(!d.open);
	cr_expect_eq(d.executed, 56250099ull);
	cr_assert_eq(d.n, 3);
	cr_expect_eq(d.insns[0].vaddr, 0x4010b0);
	cr_expect_eq(d.insns[0].count, 100);
	cr_expect_eq(d.insns[0].first, 3);
	cr_expect_eq(d.insns[0].size, 2);
	cr_expect_eq(d.insns[0].bytes[0], 0x31);
	cr_expect_str_eq(d.insns[0].disas, "xorl %eax, %eax");
	cr_expect_eq(d.insns[1].bytes[2], 0xf8);
	cr_expect_null(d.insns[2].disas, "'-' means no disassembly");
	trace_data_free(&d);
}

Test(trace_parse, every_window_kind)
{
	static const char *const kinds[] = {"out", "user", "sites", "entry"};
	static const char *const texts[] = {HDR("out", 0, 0, 0, 0), HDR("user", 1, 0, 0, 0),
					    HDR("sites", 3, 2, 2, 0), HDR("entry", 1, 1, 0, 1)};

	for (unsigned i = 0; i < 4; i++) {
		struct el_trace_data d;
		char err[256] = "";

		cr_assert_eq(parse(texts[i], &d, err, sizeof(err)), 0, "%s: %s", kinds[i], err);
		cr_expect_eq(d.window, (enum el_trace_window)i, "%s", kinds[i]);
		cr_expect_str_eq(el_trace_window_names[d.window], kinds[i]);
		trace_data_free(&d);
	}
}

Test(trace_parse, begun_but_never_opened)
{
	struct el_trace_data d;
	char err[256] = "";

	/* The whole program on our kernel: the BEGIN OUT ran, user mode never came. */
	cr_assert_eq(parse(HDR("user", 1, 0, 0, 0), &d, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(d.window, EL_TRACE_WINDOW_USER);
	cr_expect_eq(d.begun, 1);
	cr_expect_eq(d.opened, 0);
	cr_expect_eq(d.windows, 0);
	trace_data_free(&d);
}

Test(trace_parse, refuses_damage)
{
	static const char *const bad[] = {
		"",                                                      /* nothing written */
		"eltrace 1\nmarkers 1 2\nwindows 0 0\nexecuted 0\n",    /* the old format */
		"eltrace 3\nwindow out\nmarkers 1 2\nbegun 0 0\nwindows 0 0\nexecuted 5\n",
		"eltrace 2\nwindow out\nmarkers 1 2\nbegun 0 0\nwindows 0 0\n", /* incomplete */
		"eltrace 2\nmarkers 1 2\nbegun 0 0\nwindows 0 0\nexecuted 5\n", /* no window */
		"eltrace 2\nwindow out\nmarkers 1 2\nwindows 0 0\nexecuted 5\n", /* no begun */
		HDR("whole", 0, 0, 0, 0),                                /* unknown kind */
		HDR("out ", 0, 0, 0, 0),                                 /* trailing space */
		HDR("out", 1, 2, 2, 0), /* opened more than begun */
		HDR("out", 2, 2, 1, 0), /* one opened, never closed */
		HDR("out", 2, 1, 1, 1),                                  /* closed and open: 2 */
		/* torn: the last line unfinished */
		HDR("out", 0, 0, 0, 0) "I\t10\t1\t0\t1\tc3\tret",
		HDR("out", 0, 0, 0, 0) "I\t10\t1\t0\t17\tc3\tret\n",
		HDR("out", 0, 0, 0, 0) "I\t10\t1\t0\t2\tc3\tret\n",
		HDR("out", 0, 0, 0, 0) "I\tzz\t1\t0\t1\tc3\tret\n",
		HDR("out", 0, 0, 0, 0) "I\t10\t-1\t0\t1\tc3\tret\n",
		HDR("out", 0, 0, 0, 0) "I\t10\t1\t0\t1\tc3\tret\textra\n",
		HDR("out", 0, 0, 0, 7),                                  /* open is 0 or 1 */
		HDR("out", 0, 0, 0, 0) "something else\n",
	};

	for (size_t i = 0; i < EL_ARRAY_SIZE(bad); i++) {
		struct el_trace_data d;
		char err[256] = "";

		cr_expect_eq(parse(bad[i], &d, err, sizeof(err)), -1, "case %zu accepted", i);
		cr_expect(err[0], "case %zu: no message", i);
		cr_expect_eq(d.n, 0, "case %zu: instructions kept after a refusal", i);
	}
}

Test(trace_parse, plugin_error_and_open_window)
{
	struct el_trace_data d;
	char err[256];

	cr_assert_eq(parse(HDR("out", 1, 1, 0, 1) "error out of memory in the plugin\n", &d, err,
			   sizeof(err)),
		     0, "%s", err);
	cr_expect(d.open);
	cr_expect(d.plugin_error);
	trace_data_free(&d);
}

static const char console[] =
	"entrylab guest kernel (ABI 1)\n"
	"boot report:\n"
	"  cpu        AuthenticAMD family 15 model 107 stepping 1\n"
	"  cpuid      -pcid -invpcid +pge +smep +smap +umip +fsgsbase +rdtscp -rdpid +nx\n"
	"             +pdpe1gb +la57 +pku -x2apic -tsc-deadline -pdcm -arch-perfmon\n"
	"  CR0        0000000080010033 [ PE MP ET NE WP PG ]\n"
	"  CR4        0000000000310ea0 [ PAE PGE ]\n"
	"  EFER       0000000000000d01 [ SCE LME LMA NXE ]\n"
	"  config     item         requested    effective\n"
	"             pti          on           on\n"
	"             pcid         on           unavailable   (differs)\n"
	"             ret          sysret       sysret\n"
	"  paging     direct map: RAM below 0x8000000\n"
	"  selfcheck  run 0x3f failed 0x4\n"
	"vdso: [vdso] lfence-branch at 7ffff7ffd000, [vvar] at 7ffff7ffb000\n"
	"running /init (pid 1)\n"
	"init (pid 1) exited with status 200\n";

Test(trace_console, boot_report)
{
	struct el_report r;

	cr_assert(trace_console_boot(console, &r));
	cr_expect_eq(r.cr0, 0x80010033);
	cr_expect_eq(r.cr4, 0x310ea0);
	cr_expect_eq(r.efer, 0xd01);
	cr_expect(r.cpuid & (1ull << EL_FEAT_PGE));
	cr_expect(r.cpuid & (1ull << EL_FEAT_PKU), "continuation line read");
	cr_expect(!(r.cpuid & (1ull << EL_FEAT_PCID)));
	cr_expect_eq(r.config[EL_CFG_PTI], 1);
	cr_expect_eq(r.requested[EL_CFG_PCID], 1);
	cr_expect_eq(r.config[EL_CFG_PCID], EL_CONFIG_UNAVAILABLE);
	cr_expect_eq(r.config[EL_CFG_RET], 1);
	cr_expect_eq(r.config[EL_CFG_GLOBAL], EL_CONFIG_UNSET, "not printed: unset");
	cr_expect_eq(r.selfcheck_run, 0x3f);
	cr_expect_eq(r.selfcheck_failed, 0x4);
	cr_expect(!trace_console_boot("no report here\n", &r));
}

Test(trace_console, vdso_exit_panic)
{
	char name[64];
	uint64_t base = 0;
	int status = -1;

	cr_assert(trace_console_vdso(console, name, sizeof(name), &base));
	cr_expect_str_eq(name, "lfence-branch");
	cr_expect_eq(base, 0x7ffff7ffd000ull);
	cr_expect(!trace_console_vdso("vdso: off\n", name, sizeof(name), &base));
	cr_assert(trace_console_exit_status(console, &status));
	cr_expect_eq(status, 200, "the exact status, not isa-debug-exit's 7 bits");
	cr_expect(!trace_console_exit_status("booting\n", &status));
	cr_expect(!trace_console_panicked(console));
	cr_expect(trace_console_panicked("kernel panic: exception 6 #UD, exit value 0x106\n"));
}

Test(trace_console, region_line)
{
	struct el_region r;

	cr_assert(trace_console_region("boot\nregion: iterations 100 tsc_ticks 10545 tsc_khz 1000000 "
				       "syscalls 1 page_faults 3 interrupts 100\nirq done\n", &r));
	cr_expect_eq(r.iterations, 100);
	cr_expect_eq(r.tsc_end - r.tsc_begin, 10545);
	cr_expect_eq(r.tsc_khz, 1000000);
	cr_expect_eq(r.syscalls, 1);
	cr_expect_eq(r.page_faults, 3);
	cr_expect_eq(r.interrupts, 100);
	cr_expect_eq(r.valid, 1);
	cr_expect(!trace_console_region("region: iterations 100 tsc_ticks 5\n", &r),
		  "a truncated line is not half-trusted");
	cr_expect_eq(r.valid, 0);
	cr_expect(!trace_console_region("no region here\n", &r));
	cr_assert(trace_console_region("region: iterations 1 tsc_ticks 1 tsc_khz 1 syscalls 9 "
				       "page_faults 9 interrupts 9\n(pid 1) exited\nregion: "
				       "iterations 5 tsc_ticks 6 tsc_khz 7 syscalls 0 page_faults "
				       "0 interrupts 0\n",
				       &r));
	cr_expect_eq(r.syscalls, 0, "the kernel's line comes last, after what the program printed");
}
