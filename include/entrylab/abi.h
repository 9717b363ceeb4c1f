/*
 * The one interface between the VMM (host) and the guest kernel.
 *
 * Everything that crosses the VM boundary is declared here: I/O ports,
 * hypercall numbers, exit values and the layout of the report the guest
 * hands to the VMM.  Both worlds include this file; it depends only on
 * <stdint.h>.  Fields are marked (guest) when the guest writes them and the
 * host only reads and validates them, (host) for the reverse.  New fields
 * are appended; any layout change bumps EL_ABI_VERSION.
 *
 * The guest is untrusted: the VMM bounds-checks every guest-physical address
 * and length it receives here and validates every field of a report.
 */
#ifndef ENTRYLAB_ABI_H
#define ENTRYLAB_ABI_H

#include <stdint.h>

#define EL_ABI_VERSION 1u

/* ---- I/O ports -------------------------------------------------------- */

/* COM1 transmit holding register: one byte per OUT is console output. */
#define EL_PORT_COM1 0x3f8u
#define EL_PORT_COM1_LSR (EL_PORT_COM1 + 5) /* line status: reads 0x60 */

/*
 * Exit port with QEMU isa-debug-exit semantics: a 32-bit OUT of V ends the
 * VM.  Under QEMU the process exits with (V << 1) | 1; under entrylab V is
 * decoded with the EL_EXIT_* values below.
 */
#define EL_PORT_EXIT 0xf4u

/* V < 256: the guest completed and V is the user program's exit status. */
#define EL_EXIT_STATUS_MAX 255u
/* V = EL_EXIT_PANIC + vector: the guest kernel took a fatal exception. */
#define EL_EXIT_PANIC 0x100u
/* V = EL_EXIT_PANIC + EL_PANIC_SOFTWARE: the guest kernel gave up (no vector). */
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
#define EL_WRITE_MAX 4096u
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
 * Self-IPI service for the `irq` benchmark and the register checker:
 *   rax = EL_SYS_SELF_IPI, rdi = count (1..EL_SELF_IPI_MAX), rsi = 0 (flags,
 *   reserved).  Returns 0, or -EINVAL for a count out of range or rsi != 0.
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

enum el_counter_status {
	EL_COUNTER_COUNTED = 0,
	EL_COUNTER_NOT_SUPPORTED = 1, /* no PMU or no such event on this vCPU */
	EL_COUNTER_NOT_COUNTED = 2,   /* programmed, but it did not advance */
};

struct el_counter {
	uint64_t config; /* (host) raw event, as requested */
	uint64_t value;  /* (guest) */
	uint32_t status; /* (guest) enum el_counter_status */
	uint32_t pad;
};

struct el_region {
	uint64_t tsc_begin;   /* (guest) RDTSC at region begin */
	uint64_t tsc_end;     /* (guest) RDTSC at region end */
	uint64_t tsc_khz;     /* (guest) TSC frequency it used, 0 if unknown */
	uint64_t syscalls;    /* (guest) syscalls inside the region */
	uint64_t page_faults; /* (guest) page faults inside the region */
	uint64_t interrupts;  /* (guest) interrupts inside the region */
	uint64_t iterations;  /* (guest) as the program declared it, 0 if none */
	uint32_t valid;       /* (guest) 1 if begin and end were both seen */
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
	uint32_t nr_counters;      /* (guest) <= EL_MAX_COUNTERS */
	uint32_t pad;
	struct el_counter counters[EL_MAX_COUNTERS];
};

_Static_assert(sizeof(struct el_counter) == 24, "el_counter layout");
_Static_assert(sizeof(struct el_region) == 64, "el_region layout");
_Static_assert(sizeof(struct el_report) == 368, "el_report layout");

#endif
