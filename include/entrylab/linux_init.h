/*
 * `--guest linux`: the contract between the host side (VMM, trace, CLI)
 * and entrylab's /init for a Linux guest (guest/linux/, a static program),
 * and between that /init and the region markers of the benchmark it runs
 * (include/entrylab/marker.h).  Both worlds include this file; it depends only on
 * abi.h.
 *
 * The initrd the host builds (newc cpio, the kernel's initramfs):
 *   /init                  entrylab's Linux /init (guest/linux/init.c)
 *   EL_LINUX_PROGRAM       the program: a built-in benchmark or --exec FILE; absent
 *                          for a boot only (INFO, BOOT, EXIT 0: no RUN)
 *   EL_LINUX_ARGV          its argv[1..], each string NUL-terminated
 *   EL_LINUX_CONF          KEY=VALUE lines, below; unknown keys are refused
 *   plus /dev, /proc, /sys, /tmp (empty directories) and --file trees.
 *
 * Keys of EL_LINUX_CONF (every key optional):
 *   events=CFG[,CFG]...  the counters, as for our kernel's el.events (abi.h:
 *                        EL_EVSEL_* layout, EL_EVENT_NONE for "no encoding");
 *                        /init opens each as a PERF_TYPE_RAW event on the
 *                        program with exclude_user/exclude_kernel from
 *                        USR/OS, in one group, and reports them in order.
 *   ksyms=1              after the program, send /proc/kallsyms' text
 *                        symbols as KSYMS frames (trace attribution when the
 *                        kernel file has no symbol table).
 *   region=marked|whole  the region's scope (abi.h enum el_region_scope,
 *                        by its el_region_scope_names; absent: marked).
 *                        marked: as below ("The region page").  whole:
 *                        the events are opened on the program with inherit
 *                        and enable_on_exec, each on its own (inherited
 *                        counters cannot be read as a group), so they
 *                        count from exec on, children included, as perf
 *                        stat counts a command; the child reads the TSC
 *                        just before its execve into memory it shares
 *                        with /init, and /init reads it again as the first
 *                        thing after waitpid returned.  The region page is
 *                        still handed over (the program's markers keep
 *                        working and return 0) but /init ignores it.  The
 *                        RUN report then has region_scope WHOLE,
 *                        iterations 0, and markers[] as for marked (the
 *                        markers' cost is a property of the markers).
 *                        It counts page faults too: perf's software
 *                        event, opened the same way (the execve's tail
 *                        included, as perf stat -e page-faults counts);
 *                        syscalls and interrupts stay unknown.
 *   faults=0|1           (default 1) 0: a whole region opens no page-fault
 *                        event and reports page faults unknown.  `trace`
 *                        asks it: while that event exists every fault runs
 *                        perf's software-event code (___perf_sw_event and
 *                        its callees), which is the measurement's path,
 *                        not Linux's.
 *   argv0=NAME           the program's argv[0] (default EL_LINUX_PROGRAM):
 *                        the host gives the bench's name or --exec FILE's
 *                        base name, as our kernel's el.argv0, so a
 *                        multi-call binary (busybox) runs the applet named.
 *
 * What /init tells the host, all as framed lines on COM1 (serial_frame.h),
 * written with port I/O (ioperm), never through the tty layer:
 *   INFO   KEY=VALUE lines (EL_LINUX_INFO_* keys below), once, before BOOT;
 *   BOOT   a struct el_report of kind EL_REPORT_BOOT filled from what Linux
 *          reports: config[] pti, pcid, invpcid, pge, vsyscall, vdso (every
 *          other item EL_CONFIG_UNSET), requested[] all EL_CONFIG_UNSET,
 *          cr0, cr4 and efer 0 (Linux does not show them); cpuid bits from
 *          the CPUID instruction by features.def, as entrylab's kernel reads
 *          them (abi.h: "seen in CPUID"; /proc/cpuinfo's flags are what
 *          Linux uses, cleared by nopcid, and have no kvmclock or invtsc).
 *          From Linux: pti on when /proc/cpuinfo shows the "pti" flag or
 *          the meltdown file says "Mitigation: PTI" (pti=on on a CPU
 *          without Meltdown leaves that file "Not affected"); pcid,
 *          invpcid, pge on when the flag shows, off when CPUID has the
 *          feature but Linux shows no flag, EL_CONFIG_UNAVAILABLE when CPUID
 *          lacks it; vsyscall and vdso from /proc/self/maps ("[vsyscall]"
 *          --xp xonly, r-xp emulate, none; "[vdso]" on, none off);
 *   RUN    kind EL_REPORT_RUN after the program, the BOOT report's cpuid
 *          and config kept (as entrylab's kernel sends it): region (from
 *          the shared region page below), counters, markers (the same
 *          events around EL_MARKER_RUNS empty regions in /init itself,
 *          minimum each), exit_status with EL_REPORT_EXITED (128 + the
 *          signal for a program a signal killed, as a shell says it);
 *   KSYMS  (ksyms=1) chunks of "ADDR T NAME\n" lines, ADDR hex as Linux
 *          prints it, text symbols only (types t and T), lines whole, as
 *          many as fit EL_FRAME_TEXT_MAX per frame;
 *   EXIT   the value then written to EL_PORT_EXIT (abi.h semantics: the
 *          program's status 0..255, EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE when
 *          /init itself failed, having said why on the console first).
 * Linux's own console (console=ttyS0) shares the line; frames start on a
 * line of their own.  The host trusts none of it (frame decoder, report
 * checks); /init only has to be right.
 */
#ifndef ENTRYLAB_LINUX_INIT_H
#define ENTRYLAB_LINUX_INIT_H

#include <stdint.h>

#include "abi.h"

#define EL_LINUX_PROGRAM "/entrylab/program"
#define EL_LINUX_ARGV "/entrylab/argv"
#define EL_LINUX_CONF "/entrylab/conf"

/* INFO keys (values: one line, no '\n'; at most EL_FRAME_TEXT_MAX bytes in all). */
#define EL_LINUX_INFO_RELEASE "release"         /* uname -r */
#define EL_LINUX_INFO_CMDLINE "cmdline"         /* /proc/cmdline, as Linux shows it */
#define EL_LINUX_INFO_MELTDOWN "meltdown"       /* /sys/devices/system/cpu/vulnerabilities/meltdown */
#define EL_LINUX_INFO_CLOCKSOURCE "clocksource" /* current_clocksource */
#define EL_LINUX_INFO_VSYSCALL "vsyscall"       /* none | xonly | emulate (from /proc/self/maps) */
#define EL_LINUX_INFO_KTEXT "ktext"             /* _text's address from kallsyms, hex; "" if hidden */

/*
 * The region page: /init creates it (memfd, EL_LINUX_REGION_SIZE bytes,
 * zeroed) and hands it to the program as descriptor EL_LINUX_REGION_FD,
 * named in the environment as EL_LINUX_ENV_REGION=<fd>.  The counters'
 * group leader (when events were asked and at least one opened) is
 * descriptor EL_LINUX_PERF_FD, named as EL_LINUX_ENV_PERF=<fd>; the group
 * is created disabled.  Neither is close-on-exec for the program; /init
 * closes both in any other child.  The rest of the program's environment
 * is entrylab's kernel's (HOME=/, PATH=/bin, TERM=linux), its stdin,
 * stdout and stderr /init's (/dev/console), its argv[0] EL_LINUX_PROGRAM;
 * it inherits no I/O permission (ioperm), which Linux would otherwise
 * update on every return to user mode.
 *
 * On Linux the marker syscall answers -ENOSYS, and the markers' slow path
 * (include/entrylab/marker.h) then does the region itself: BEGIN resets and
 * enables the group (PERF_IOC_FLAG_GROUP), stores iterations and RDTSC
 * last; END takes RDTSC first, disables the group, counts the region.
 * /init reads the group after the program ended.  The program never
 * trusts the page's contents (it only writes); /init checks them like any
 * report field.
 */
#define EL_LINUX_REGION_FD 1000
#define EL_LINUX_PERF_FD 1001
#define EL_LINUX_ENV_REGION "EL_REGION_FD"
#define EL_LINUX_ENV_PERF "EL_PERF_FD"
#define EL_LINUX_REGION_SIZE 4096u
#define EL_LINUX_REGION_MAGIC 0x4e474552u /* "REGN" */

struct el_linux_region {
	uint32_t magic;      /* (program) EL_LINUX_REGION_MAGIC once it wrote anything */
	uint32_t begins;     /* (program) BEGIN markers seen */
	uint32_t ends;       /* (program) END markers seen */
	uint32_t errors;     /* (program) a perf ioctl failed: counters not counted */
	uint64_t tsc_begin;  /* (program) RDTSC at the last BEGIN */
	uint64_t tsc_end;    /* (program) RDTSC at the last END */
	uint64_t iterations; /* (program) as the last BEGIN declared it */
};
_Static_assert(sizeof(struct el_linux_region) == 40, "el_linux_region layout");

/*
 * The marker sites, for `trace --guest linux`: every inlined marker SYSCALL
 * is listed in the program's ELF section EL_REGION_SITES_SECTION as one
 * struct el_region_site.  The tracer opens its window at the first user
 * instruction after a BEGIN site's SYSCALL returns and closes it at an END
 * site's SYSCALL (not counted).  On Linux the window so holds the loop and,
 * after BEGIN, the return through the markers' slow path (include/entrylab/
 * marker.h: a few dozen user instructions; the ENABLE ioctl's return too
 * when a perf group was asked).  The section is not allocatable (nothing
 * of it is loaded; `strip` keeps it); addr is the link-time address, 0 for
 * a site whose function the linker dropped.
 */
#define EL_REGION_SITES_SECTION "el_region_sites"
struct el_region_site {
	uint64_t addr; /* the SYSCALL instruction's address (2 bytes: 0f 05) */
	uint64_t op;   /* EL_REGION_BEGIN or EL_REGION_END */
};
_Static_assert(sizeof(struct el_region_site) == 16, "el_region_site layout");

/*
 * The whole-program window, for `trace --guest linux --region whole`: the
 * tracer opens it at the program's first user instruction (its ELF entry
 * point, matched by address and bytes, as the sites are) and closes it at
 * EL_LINUX_WHOLE_END_SYMBOL, a global label in /init's own ELF on the
 * first instruction /init runs once waitpid for the program returned (not
 * counted).  The window so holds the program, its children, its exit and
 * the scheduler's way back to /init's waitpid return: what Linux does for a
 * command from its exec to its parent's wait, as perf stat brackets it.
 */
#define EL_LINUX_WHOLE_END_SYMBOL "linit_whole_end"

#endif
