/*
 * `--guest linux`'s kernel command line (common/linux_cmdline.c): the base,
 * the user's knobs passed through, entrylab-only knobs refused with the fix.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "entrylab/knobs.h"
#include "linux_cmdline.h"

static int compose(const char *append, char *out, char *err)
{
	return linux_cmdline_compose(out, 2048, append, err, 256);
}

Test(linux_cmdline, base_alone)
{
	char out[2048], err[256];

	cr_assert_eq(compose(NULL, out, err), 0, "%s", err);
	cr_expect_str_eq(out, LINUX_CMDLINE_BASE);
	cr_assert_eq(compose("", out, err), 0, "%s", err);
	cr_expect_str_eq(out, LINUX_CMDLINE_BASE);
	cr_expect(strstr(out, "console=ttyS0"));
	cr_expect(strstr(out, "panic=-1"));
}

Test(linux_cmdline, linux_knobs_pass_through_after_the_base)
{
	static const char *const ok[] = {
		"pti=on", "pti=off", "pti=auto", "nopti", "nopcid", "noinvpcid",
		"vsyscall=emulate", "vsyscall=xonly", "vsyscall=none", "vdso=0", "vdso=1",
		"loglevel=7", "mitigations=off", "nosmep foo=bar", "\"quoted=a b\"",
		"earlyprintk=serial,ttyS0,115200",
	};
	char out[2048], err[256], want[2048];

	for (size_t i = 0; i < EL_ARRAY_SIZE(ok); i++) {
		cr_expect_eq(compose(ok[i], out, err), 0, "'%s': %s", ok[i], err);
		snprintf(want, sizeof(want), "%s %s", LINUX_CMDLINE_BASE, ok[i]);
		cr_expect_str_eq(out, want);
	}
}

static void expect_refused(const char *append, const char *why)
{
	char out[2048], err[256];

	cr_expect_eq(compose(append, out, err), -1, "accepted '%s'", append);
	cr_expect(strstr(err, why), "'%s': %s", append, err);
	cr_expect(strstr(err, "--append"), "'%s': the message names the option: %s", append, err);
}

Test(linux_cmdline, entrylab_only_knobs_refused)
{
	expect_refused("pti.global=none", "entrylab's kernel's");
	expect_refused("pti=on entry.ret=sysret", "entry.ret");
	expect_refused("entry.irq_return=trampoline", "Linux has none");
	expect_refused("vdso.tsc=rdtscp", "Linux has none");
	expect_refused("vdso.clamp=cmov", "Linux has none");
	expect_refused("sched.region_tick=on", "Linux has none");
	expect_refused("test.crash=ud", "test hook");
	expect_refused("\"pti.global=all\"", "Linux has none");
}

Test(linux_cmdline, every_knob_of_ours_is_linux_s_or_refused)
{
	static const char *const linux_too[] = {"pti", "nopti", "nopcid", "noinvpcid",
						"vsyscall", "vdso"};

	for (size_t i = 0; i < EL_KNOB_COUNT; i++) {
		char tok[64], out[2048], err[256];
		int shared = 0;

		for (size_t s = 0; s < EL_ARRAY_SIZE(linux_too); s++)
			shared |= !strcmp(linux_too[s], el_knobs[i].name);
		snprintf(tok, sizeof(tok), "%s%s", el_knobs[i].name,
			 el_knobs[i].flag_value < 0 ? "=x" : "");
		cr_expect_eq(compose(tok, out, err), shared ? 0 : -1, "'%s': %s", tok, err);
	}
}

Test(linux_cmdline, our_spellings_linux_reads_otherwise)
{
	expect_refused("vsyscall=native", "no native");
	expect_refused("vdso=on", "vdso=1");
	expect_refused("vdso=off", "vdso=0");
}

Test(linux_cmdline, init_console_and_vmm_knobs_refused)
{
	expect_refused("init=/bin/sh", "--exec");
	expect_refused("rdinit=/sh", "--exec");
	expect_refused("console=tty0", "COM1");
	expect_refused("el.events=0x3c", "el.*");
	expect_refused("el.tsc_khz=1", "el.*");
	expect_refused("pti=on -- x", "'--'");
	expect_refused("pti=\"on", "quote");
}

Test(linux_cmdline, too_long_refused)
{
	char append[3000], out[2048], err[256];

	memset(append, 'a', sizeof(append) - 1);
	append[sizeof(append) - 1] = '\0';
	cr_expect_eq(linux_cmdline_compose(out, sizeof(out), append, err, sizeof(err)), -1);
	cr_expect(strstr(err, "shorten --append"), "%s", err);
	cr_expect_eq(linux_cmdline_compose(out, sizeof(LINUX_CMDLINE_BASE), "", err, sizeof(err)),
		     0, "the base fits exactly");
}
