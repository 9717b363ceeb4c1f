/*
 * entrylab's /init for Linux: what it makes of Linux's /proc and /sys text
 * (guest/linux/facts_parse.c) and the INFO frame it writes (info.c).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "entrylab/knobs.h"
#include "entrylab/linux_init.h"
#include "entrylab/serial_frame.h"
#include "guest/linux/facts.h"
#include "guest/linux/facts_parse.h"

/* As Linux 6.1 prints it under QEMU -cpu Skylake-Client with PTI (trimmed). */
static const char cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"model name\t: Intel Core Processor (Skylake)\n"
	"flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat "
	"syscall nx pdpe1gb rdtscp lm constant_tsc nonstop_tsc pcid invpcid_single pti smep "
	"smap\n"
	"vmx flags\t: vnmi\n"
	"bugs\t\t: cpu_meltdown spectre_v1\n"
	"\n"
	"processor\t: 1\n"
	"flags\t\t: fpu other\n";

Test(linux_init_facts, first_flags_line)
{
	char flags[512];

	cr_assert_eq(linit_cpuinfo_flags(cpuinfo, strlen(cpuinfo), flags, sizeof(flags)), 0);
	cr_expect(!strncmp(flags, "fpu vme de", 10), "%s", flags);
	cr_expect(!strcmp(flags + strlen(flags) - 4, "smap"), "%s", flags);
	/* Cut, never overrun. */
	cr_assert_eq(linit_cpuinfo_flags(cpuinfo, strlen(cpuinfo), flags, 8), 0);
	cr_expect_str_eq(flags, "fpu vme");
	cr_expect_eq(linit_cpuinfo_flags("vmx flags\t: x\n", 14, flags, sizeof(flags)), -1);
	cr_expect_eq(linit_cpuinfo_flags("", 0, flags, sizeof(flags)), -1);
}

Test(linux_init_facts, flags_are_whole_words)
{
	const char *f = "fpu pge pcid invpcid_single pti";

	cr_expect(linit_flag_has(f, "fpu"));
	cr_expect(linit_flag_has(f, "pti"));
	cr_expect(linit_flag_has(f, "pcid"));
	cr_expect(!linit_flag_has(f, "invpcid"), "invpcid_single is Linux's, not CPUID's");
	cr_expect(!linit_flag_has(f, "pg"));
	cr_expect(!linit_flag_has(f, ""));
	cr_expect(!linit_flag_has("", "pti"));
}

Test(linux_init_facts, pti_from_flag_or_meltdown)
{
	cr_expect_eq(linit_pti("fpu pti", "Not affected"), EL_ON,
		     "pti=on on a CPU without Meltdown: the flag shows, the file does not");
	cr_expect_eq(linit_pti("fpu", "Mitigation: PTI"), EL_ON);
	cr_expect_eq(linit_pti("fpu", "Vulnerable"), EL_OFF);
	cr_expect_eq(linit_pti("fpu", "Not affected"), EL_OFF);
	cr_expect_eq(linit_pti("fpu", ""), EL_OFF);
	cr_expect_eq(linit_pti("fpu", NULL), EL_OFF);
	cr_expect_eq(linit_pti("fpu ptix", "Mitigation: PTIx"), EL_ON, "a prefix of the file");
}

Test(linux_init_facts, feature_config_three_ways)
{
	cr_expect_eq(linit_flag_config("pge pcid", "pcid", true), EL_ON);
	cr_expect_eq(linit_flag_config("pge", "pcid", true), EL_OFF, "nopcid: CPUID has it");
	cr_expect_eq(linit_flag_config("pge", "pcid", false), EL_CONFIG_UNAVAILABLE);
}

static const char maps_xonly[] =
	"00400000-00401000 r--p 00000000 00:02 9                          /entrylab/program\n"
	"7ffc2bf2e000-7ffc2bf30000 r-xp 00000000 00:00 0                  [vdso]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0          [vsyscall]\n";

Test(linux_init_facts, vsyscall_and_vdso_from_maps)
{
	static const char emulate[] = "ffffffffff600000-ffffffffff601000 r-xp 00000000 00:00 0 "
				      "  [vsyscall]";
	static const char odd[] = "ffffffffff600000-ffffffffff601000 rwxp 00000000 00:00 0 "
				  "  [vsyscall]\n";
	static const char named[] = "00400000-00401000 r-xp 00000000 00:02 9  /x[vsyscall]\n";

	cr_expect_eq(linit_vsyscall_mode(maps_xonly, strlen(maps_xonly)), EL_VSYSCALL_XONLY);
	cr_expect_eq(linit_vsyscall_mode(emulate, strlen(emulate)), EL_VSYSCALL_EMULATE,
		     "the last line needs no newline");
	cr_expect_eq(linit_vsyscall_mode(odd, strlen(odd)), EL_VSYSCALL_EMULATE, "readable");
	cr_expect_eq(linit_vsyscall_mode(named, strlen(named)), EL_VSYSCALL_NONE,
		     "a file whose name ends in [vsyscall] is not the page");
	cr_expect_eq(linit_vsyscall_mode("", 0), EL_VSYSCALL_NONE);
	cr_expect_eq(linit_vdso_mode(maps_xonly, strlen(maps_xonly)), EL_VDSO_ON);
	cr_expect_eq(linit_vdso_mode(emulate, strlen(emulate)), EL_VDSO_OFF);
	cr_expect_str_eq(linit_vsyscall_name(EL_VSYSCALL_XONLY), "xonly");
	cr_expect_str_eq(linit_vsyscall_name(EL_VSYSCALL_NONE), "none");
	cr_expect_str_eq(linit_vsyscall_name(EL_VSYSCALL_EMULATE), "emulate");
}

Test(linux_init_facts, kallsyms_lines)
{
	struct linit_ksym s;
	const char *l = "ffffffff81000000 T _text";
	const char *m = "ffffffffc0001000 t helper\t[kvm]";

	cr_assert_eq(linit_ksym_parse(l, strlen(l), &s), 0);
	cr_expect_eq(s.addrlen, 16);
	cr_expect_eq(s.type, 'T');
	cr_expect_eq(s.namelen, 5);
	cr_expect(!memcmp(s.name, "_text", 5));
	cr_expect(linit_ksym_is_text(&s));
	cr_assert_eq(linit_ksym_parse(m, strlen(m), &s), 0);
	cr_expect_eq(s.namelen, 6, "the module is not part of the name");
	cr_assert_eq(linit_ksym_parse("0000000000000000 A fixed_percpu_data", 36, &s), 0);
	cr_expect(!linit_ksym_is_text(&s));
	cr_expect_eq(linit_ksym_parse("ffffffff81000000 T ", 19, &s), -1);
	cr_expect_eq(linit_ksym_parse("xyz T name", 10, &s), -1);
	cr_expect_eq(linit_ksym_parse("ffffffff81000000T name", 22, &s), -1);
	cr_expect_eq(linit_ksym_parse("", 0, &s), -1);
}

Test(linux_init_facts, info_lines_and_their_cut)
{
	static struct linit_facts f;
	char out[EL_FRAME_TEXT_MAX];

	memset(&f, 0, sizeof(f));
	strcpy(f.release, "6.1.0-57-amd64");
	strcpy(f.meltdown, "Mitigation: PTI");
	strcpy(f.clocksource, "tsc");
	strcpy(f.ktext, "ffffffff81000000");
	strcpy(f.cmdline, "console=ttyS0 a\nb\x1b[31m");
	f.config[EL_CFG_VSYSCALL] = EL_VSYSCALL_XONLY;
	size_t n = linit_info_format(&f, out, sizeof(out));
	static const char want[] = "release=6.1.0-57-amd64\nmeltdown=Mitigation: PTI\n"
				   "clocksource=tsc\nvsyscall=xonly\nktext=ffffffff81000000\n"
				   "cmdline=console=ttyS0 a?b?[31m\n";

	cr_assert_eq(n, strlen(want));
	cr_expect(!memcmp(out, want, n), "%.*s", (int)n, out);
	/* A long command line is cut, its newline kept, no key lost. */
	memset(f.cmdline, 'x', sizeof(f.cmdline) - 1);
	n = linit_info_format(&f, out, 200);
	cr_expect_eq(n, 200);
	cr_expect_eq(out[199], '\n');
	cr_expect(memmem(out, n, "ktext=", 6));
}
