/*
 * The facts /init reports about the Linux it runs on (INFO and BOOT
 * frames, include/entrylab/linux_init.h), read from /proc, /sys and CPUID.
 */
#ifndef LINIT_FACTS_H
#define LINIT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include <entrylab/knobs.h>

#define LINIT_CMDLINE_MAX 4096 /* above any COMMAND_LINE_SIZE of x86 Linux (2048) */

struct linit_facts {
	char release[65];                   /* uname -r */
	char cmdline[LINIT_CMDLINE_MAX];    /* /proc/cmdline, without its '\n' */
	char meltdown[128];                 /* the vulnerabilities file, "" if absent */
	char clocksource[64];               /* current_clocksource, "" if absent */
	char ktext[24];                     /* _text from kallsyms, hex, "" if hidden */
	char flags[4096];                   /* /proc/cpuinfo's first "flags" */
	uint64_t cpuid;                     /* el_report.cpuid (cpuid.h) */
	uint8_t config[EL_CFG_COUNT];       /* pti, pcid, invpcid, pge, vsyscall, vdso */
};

/*
 * Reads them all; /proc and /sys must be mounted.  0, or -1 with what was
 * missing in err (a fact the report cannot do without: cmdline, cpuinfo,
 * maps).
 */
int linit_facts_read(struct linit_facts *f, char *err, size_t errlen);

/*
 * Waits (at most LINIT_SETTLE_MAX_S) while Linux still runs on its boot-time
 * clocksource "tsc-early": without a known TSC frequency it refines the
 * calibration a second or so after boot and then switches to "tsc" (a
 * stop_machine), which would otherwise land in the program's run.  Returns
 * the seconds waited.
 */
#define LINIT_SETTLE_MAX_S 5
double linit_clocksource_settle(void);

/*
 * The INFO frame's payload: "KEY=VALUE\n" per EL_LINUX_INFO_* key, every
 * value on one line (control characters become '?'), cut to fit cap.
 * Returns its length.  Pure (info.c).
 */
size_t linit_info_format(const struct linit_facts *f, char *out, size_t cap);

#endif
