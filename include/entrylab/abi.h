/*
 * The one interface between the VMM (host) and the guest kernel.
 *
 * Everything that crosses the VM boundary is declared here: I/O ports,
 * hypercall numbers, exit values and the layout of the report the guest
 * hands to the VMM.  Both worlds include this file; it depends only on
 * <stdint.h>.  Fields are marked (guest) when the guest writes them and the
 * host only reads and validates them, (host) for the reverse.  New fields
 * are appended at the end of a structure, rows at the end of a table.
 *
 * The guest is untrusted: the VMM bounds-checks every guest-physical address
 * and length it receives here and validates every field of a report.
 */
#ifndef ENTRYLAB_ABI_H
#define ENTRYLAB_ABI_H

#include <stdint.h>

/*
 * The ABI's version: the guest writes it into every report and the VMM takes
 * only its own (vmm/report_check.c), so a guest kernel built from another
 * tree (--kernel FILE) is refused by name instead of misread.
 *
 * Every change bumps it, appends included.  The VMM accepts a report of its
 * own size only, and it reads the guest's bits and values through its own
 * tables: a row appended to features.def or selfcheck.def names a bit an older
 * guest never sets, one appended to knobs.h an item it never reports and a
 * knob it does not know.  The ABI is this header, linux_init.h's frames,
 * and the tables of features.h, selfcheck.h and knobs.h (defined once, in
 * common/abi_tables.c) with the .def files behind them.
 *
 * common/abi_tables.c pins this version's shape (the report's size, each
 * table's length) in a _Static_assert: changing any of them fails the build
 * there until the version is bumped and the new shape pinned.  A row moved
 * or renamed, or a value changed, keeps the shape: the unit test
 * tests/unit/test_abi_tables.c pins a fingerprint of the tables' contents
 * to the version for those.
 */
#define EL_ABI_VERSION 4u

/* ---- I/O ports -------------------------------------------------------- */

/* COM1 transmit holding register: one byte per OUT is console output. */
#define EL_PORT_COM1 0x3f8u
#define EL_PORT_COM1_LSR (EL_PORT_COM1 + 5) /* line status: reads 0x60 */

/*
 * Exit port with QEMU isa-debug-exit semantics: a 32-bit OUT of V ends the
 * VM.  Under QEMU the process exits with (V << 1) | 1; under entrylab V is
 * decoded with the EL_PORT_EXIT_* values below.
 */
#define EL_PORT_EXIT 0xf4u

/* The PC's POST-code port: the VMM drops writes and reads 0xff (vmm/dev/post.c). */
#define EL_PORT_POST 0x80u

/* V < 256: the guest completed and V is the user program's exit status. */
#define EL_PORT_EXIT_STATUS_MAX 255u
/* V = EL_PORT_EXIT_PANIC + vector: the guest kernel took a fatal exception. */
#define EL_PORT_EXIT_PANIC 0x100u
/* V = EL_PORT_EXIT_PANIC + EL_PANIC_SOFTWARE: the guest kernel gave up (no vector). */
#define EL_PANIC_SOFTWARE 0xffu

/*
 * Hypercalls: a 32-bit OUT to EL_PORT_HCALL + nr.  The value written is the
 * guest-physical address of the argument (0 when the call takes none).
 */
#define EL_PORT_HCALL 0x500u

/*
 * A 32-bit IN from EL_PORT_HCALL answers EL_HCALL_PROBE under entrylab's VMM
 * (QEMU and others answer all ones): the guest kernel asks once at boot
 * whether hypercalls reach anyone, and falls back to COM1 otherwise.
 */
#define EL_HCALL_PROBE (0x454c0000u | EL_ABI_VERSION)

enum el_hcall {
	EL_HC_REPORT = 0,       /* arg: struct el_report; boot and run reports */
	EL_HC_REGION_BEGIN = 1, /* no arg; sent just before counters start */
	EL_HC_REGION_END = 2,   /* no arg; sent just after counters stop */
	EL_HC_WRITE = 3,        /* arg: struct el_write; the program's stdout/stderr */
	EL_HC_COUNT
};

/*
 * EL_HC_WRITE: the user program wrote to its stdout (fd 1) or stderr (fd 2),
 * or the kernel to its console (fd EL_WRITE_CONSOLE: the same stream as
 * COM1, one exit per line instead of one per byte).
 */
#define EL_WRITE_MAX 65536u
#define EL_WRITE_CONSOLE 0u
struct el_write {
	uint32_t fd;  /* (guest) EL_WRITE_CONSOLE, 1 or 2 */
	uint32_t len; /* (guest) <= EL_WRITE_MAX */
	uint64_t gpa; /* (guest) guest-physical address of the bytes */
};
_Static_assert(sizeof(struct el_write) == 16, "el_write layout");

/* ---- Region markers (user program -> guest kernel) ----------------------- */

/*
 * The measured region of a benchmark is bracketed by a syscall only the
 * entrylab guest kernel implements (Linux answers -ENOSYS, so the same
 * binary runs unmarked on a Linux host):
 *   rax = EL_SYS_REGION, rdi = EL_REGION_BEGIN or EL_REGION_END,
 *   rsi = iterations of the loop (BEGIN; 0 if unknown).  Returns 0.
 * BEGIN resets the region counters and starts the PMU and the TSC read as
 * late as possible; END stops them as early as possible.
 */
#define EL_SYS_REGION 1000
#define EL_REGION_QUERY 0 /* no-op, returns 0: tells the entrylab kernel from Linux */
#define EL_REGION_BEGIN 1
#define EL_REGION_END 2

/*
 * The region's scope (host -> guest, and back in el_report.region_scope).
 * The host decides it before boot: --region marked|whole, else marked when
 * the program's ELF lists marker sites (EL_REGION_SITES_SECTION,
 * linux_init.h) and whole otherwise.  It reaches our kernel as the knob
 * el.region=marked|whole (absent: marked) and Linux's /init as the conf key
 * region= (linux_init.h).
 *   MARKED  the region is what the markers bracket (above).
 *   WHOLE   the region is the whole program, as perf stat counts a command:
 *           it begins at the program's first user-mode instruction after
 *           exec and ends when the program's process has exited; its
 *           children count (what they did before they exited).  The markers
 *           are no-ops then that return 0 (each still a syscall the region
 *           counts), and the region's iterations are 0 (the host divides by
 *           -n when given).  Our kernel: begin is the last thing before
 *           init's first return to user mode, end the first thing once init
 *           exited (proc/process.c run_end); the timer stays on, as for any
 *           program, and its interrupts count.
 */
enum el_region_scope {
	EL_REGION_SCOPE_NONE = 0,   /* (guest) no region was measured */
	EL_REGION_SCOPE_MARKED = 1,
	EL_REGION_SCOPE_WHOLE = 2,
	EL_REGION_SCOPE_COUNT
};

/* As the knob, the conf key and --region take them; records say "whole-program". */
extern const char *const el_region_scope_names[EL_REGION_SCOPE_COUNT];
extern const char *const el_region_scope_record[EL_REGION_SCOPE_COUNT];

/*
 * Self-IPI service for the `irq` benchmark and the register checker:
 *   rax = EL_SYS_SELF_IPI, rdi = count (1..EL_SELF_IPI_MAX), rsi = 0 (flags,
 *   reserved).  Returns 0, or -EINVAL for a count out of range or rsi != 0,
 *   -ENODEV when the vCPU has no local APIC (CPUID.01H:EDX.APIC clear).
 * The kernel makes `count` interrupts from its local APIC (self-IPI, one
 * fixed vector) arrive while the caller is in user mode: the first one is
 * pending when the syscall returns and is taken at the first user
 * instruction; each handler that interrupted user mode sends the next one
 * before it returns while the remaining count is non-zero.  So the count
 * interrupts form a back-to-back chain of user-mode interrupt entries and
 * returns (the paths entry.ret and entry.irq_return select), all taken
 * before the caller's next instruction completes.  User registers, flags and
 * the user stack (red zone included) are preserved as for any interrupt;
 * RAX, RCX and R11 change as for any syscall.  Each one counts in
 * el_region.interrupts.  Linux answers -ENOSYS.
 */
#define EL_SYS_SELF_IPI 1001
#define EL_SELF_IPI_MAX (1u << 20)

/* ---- Reports ---------------------------------------------------------- */

#define EL_REPORT_MAGIC 0x52504c45u /* "ELPR" */

enum el_report_kind {
	EL_REPORT_BOOT = 1, /* after boot: CPUID, CR4, effective configuration */
	EL_REPORT_RUN = 2,  /* after the user program: region and counters */
};

/* Values of the configuration items (include/entrylab/knobs.h). */
#define EL_CONFIG_UNAVAILABLE 0xfeu /* requested, but the vCPU lacks a feature */
#define EL_CONFIG_UNSET 0xffu       /* not reported */
#define EL_CONFIG_MAX 16u           /* room for config items */

#define EL_MAX_COUNTERS 8u

/*
 * Events (host -> guest).  The VMM resolves the perf names of -e into event
 * selects for the vCPU's model (vmm/events.c) and appends them, in request
 * order, to the guest command line as
 *     el.events=CFG[,CFG]...      (at most EL_MAX_COUNTERS; CFG hex "0x..")
 * A CFG uses the event-select layout both vendors share (IA32_PERFEVTSELx,
 * AMD PERF_CTLx), restricted to EL_EVSEL_ALLOWED.  USR and OS carry the
 * perf modifiers (:u = USR, :k = OS, none = both).  The enable, interrupt,
 * AnyThread and AMD Host/Guest-only bits are never part of a CFG: the guest
 * kernel owns them.  EL_EVENT_NONE (neither USR nor OS) marks an event the
 * VMM has no encoding for on this CPU model; the guest reports it
 * not-supported without touching the PMU.  Intel's instructions (0x00c0),
 * cycles (0x003c) and ref-cycles (0x013c) go to fixed counters 0-2 when free.
 */
#define EL_EVSEL_EVENT 0xffull           /* event select [7:0] */
#define EL_EVSEL_UMASK 0xff00ull         /* unit mask */
#define EL_EVSEL_USR (1ull << 16)        /* count at CPL 3 */
#define EL_EVSEL_OS (1ull << 17)         /* count at CPL 0 */
#define EL_EVSEL_EDGE (1ull << 18)
#define EL_EVSEL_INV (1ull << 23)
#define EL_EVSEL_CMASK 0xff000000ull     /* counter mask */
#define EL_EVSEL_EVENT_HI 0xf00000000ull /* AMD: event select [11:8] */
#define EL_EVSEL_ALLOWED                                                                   \
	(EL_EVSEL_EVENT | EL_EVSEL_UMASK | EL_EVSEL_USR | EL_EVSEL_OS | EL_EVSEL_EDGE |    \
	 EL_EVSEL_INV | EL_EVSEL_CMASK | EL_EVSEL_EVENT_HI)
#define EL_EVENT_NONE 0ull

/* The PMU the guest kernel found (struct el_pmu_info.kind). */
enum el_pmu_kind {
	EL_PMU_NONE = 0,
	EL_PMU_INTEL_V1,   /* CPUID 0AH version 1: GP counters, no global control */
	EL_PMU_INTEL_V2,   /* version >= 2: fixed counters, IA32_PERF_GLOBAL_CTRL */
	EL_PMU_AMD_LEGACY, /* K7 counters 0xc0010000.. (4) */
	EL_PMU_AMD_CORE,   /* PerfCtrExtCore: 0xc0010200.. (6) */
	EL_PMU_AMD_V2,     /* PerfMonV2: core counters and PerfCntrGlobalCtl */
	EL_PMU_KIND_COUNT
};

/* As records name them (host.pmu, guest.pmu.kind; common/abi_tables.c). */
extern const char *const el_pmu_kind_names[EL_PMU_KIND_COUNT];

struct el_pmu_info {
	uint8_t kind;        /* (guest) enum el_pmu_kind, after probing the MSRs */
	uint8_t version;     /* (guest) Intel: CPUID 0AH version; AMD: 2 with PerfMonV2 */
	uint8_t nr_gp;       /* (guest) general-purpose counters enumerated */
	uint8_t nr_fixed;    /* (guest) fixed counters enumerated */
	uint8_t gp_width;    /* (guest) bits */
	uint8_t fixed_width; /* (guest) bits */
	uint8_t pad[2];
	uint32_t gp_usable;    /* (guest) bit i: GP counter i passed the MSR probe */
	uint32_t fixed_usable; /* (guest) bit i: fixed counter i passed the MSR probe */
};

/* Empty regions the guest kernel measures at boot for el_report.markers. */
#define EL_MARKER_RUNS 16u

enum el_counter_status {
	EL_COUNTER_COUNTED = 0,
	EL_COUNTER_NOT_SUPPORTED = 1, /* no PMU, no such event on this vCPU, MSR #GP */
	EL_COUNTER_NOT_COUNTED = 2,   /* no free counter, or programmed and it did not
				       * advance where it must (cycles, instructions) */
};

struct el_counter {
	uint64_t config; /* (guest) the el.events CFG it was asked (EL_EVSEL_*) */
	uint64_t value;  /* (guest) meaningful only with EL_COUNTER_COUNTED */
	uint32_t status; /* (guest) enum el_counter_status */
	uint32_t pad;
};

/*
 * Region fields a kernel could not count (el_region.unknown): records show
 * them as null, never as 0.  Our kernel counts all; Linux's /init (linux_init.h)
 * counts none of these three in a marked region, page faults in a whole one.
 */
#define EL_REGION_UNKNOWN_SYSCALLS 0x1u
#define EL_REGION_UNKNOWN_PAGE_FAULTS 0x2u
#define EL_REGION_UNKNOWN_INTERRUPTS 0x4u
#define EL_REGION_UNKNOWN_ALL 0x7u

struct el_region {
	uint64_t tsc_begin;   /* (guest) RDTSC at region begin */
	uint64_t tsc_end;     /* (guest) RDTSC at region end */
	uint64_t tsc_khz;     /* (guest) TSC frequency it used, 0 if unknown */
	uint64_t syscalls;    /* (guest) syscalls inside the region */
	uint64_t page_faults; /* (guest) page faults inside the region */
	uint64_t interrupts;  /* (guest) interrupts inside the region */
	uint64_t iterations;  /* (guest) as the program declared it, 0 if none */
	uint32_t valid;       /* (guest) 1 if begin and end were both seen */
	uint32_t unknown;     /* (guest) EL_REGION_UNKNOWN_* bits: fields not counted (ABI 3) */
};

/*
 * The scheduler timer (guest): a periodic LAPIC timer whose repeat is the
 * backstop for an interrupt that is lost or late (guest-kernel/proc/timer.c).
 * Lateness is measured at the interrupt, against the time the timer was
 * armed to fire.
 */
struct el_timer_stats {
	uint64_t interrupts;   /* (guest) timer interrupts taken */
	uint64_t late_last_ns; /* (guest) how late the latest one came */
	uint64_t late_max_ns;  /* (guest) how late the latest-coming one came */
	uint32_t fallbacks;    /* (guest) interrupts a whole period or more late: the expected one
				  was lost or delayed and the periodic repeat woke the CPU */
	uint32_t polls;        /* (guest) idle waits too near their deadline to halt: polled */
	uint32_t halt_skips;   /* (guest) interrupts that came between idle's STI and HLT, whose
				  handler moved past the HLT (arch/x86_64/idle.h) */
	uint32_t pad;
};

/* Report flags (guest). */
#define EL_REPORT_EXITED 0x1u /* exit_status is valid */

struct el_report {
	uint32_t magic;       /* (guest) EL_REPORT_MAGIC */
	uint32_t abi_version; /* (guest) EL_ABI_VERSION */
	uint32_t size;        /* (guest) sizeof(struct el_report) */
	uint32_t kind;        /* (guest) enum el_report_kind */
	uint64_t cr0, cr4, efer; /* (guest) as set up */
	uint64_t cpuid;       /* (guest) bit i: feature i (features.def) seen in CPUID */
	uint8_t config[EL_CONFIG_MAX];    /* (guest) effective value per config item */
	uint8_t requested[EL_CONFIG_MAX]; /* (guest) value the command line asked */
	uint32_t selfcheck_run;    /* (guest) bit i: self-check i ran */
	uint32_t selfcheck_failed; /* (guest) bit i: self-check i failed */
	uint64_t unknown_syscalls; /* (guest) */
	int32_t exit_status;       /* (guest) valid with EL_REPORT_EXITED */
	uint32_t flags;            /* (guest) EL_REPORT_* */
	struct el_region region;   /* (guest) kind RUN */
	uint32_t nr_counters;      /* (guest) <= EL_MAX_COUNTERS, one per el.events CFG */
	uint32_t pad;
	struct el_counter counters[EL_MAX_COUNTERS]; /* (guest) kind RUN, el.events order */
	/* Appended; the layout above is unchanged. */
	struct el_pmu_info pmu; /* (guest) what the counters ran on */
	/*
	 * (guest) The markers' own cost: the same counters around an empty
	 * region in the kernel at boot (enabled, then disabled at once), the
	 * minimum of EL_MARKER_RUNS; nr_counters entries, like counters[].  It
	 * excludes the SYSCALL return and entry around a user-mode region.
	 */
	struct el_counter markers[EL_MAX_COUNTERS];
	/* Appended in ABI 2: the scheduler timer, as the guest saw it (proc/timer.c). */
	struct el_timer_stats timer;
	/*
	 * Appended in ABI 4 (kind RUN; 0 in BOOT): enum el_region_scope, the
	 * scope the guest measured (the one it was asked) when region.valid,
	 * EL_REGION_SCOPE_NONE when it measured none.
	 */
	uint32_t region_scope;
	uint32_t pad2;
};

_Static_assert(sizeof(struct el_counter) == 24, "el_counter layout");
_Static_assert(sizeof(struct el_region) == 64, "el_region layout");
_Static_assert(sizeof(struct el_pmu_info) == 16, "el_pmu_info layout");
_Static_assert(sizeof(struct el_timer_stats) == 40, "el_timer_stats layout");
_Static_assert(sizeof(struct el_report) == 624, "el_report layout");

#endif
