/*
 * One boot of the guest: what to run (spec) and what came back (result).
 * el_vm_run() (jail.c) is the VMM's one entry: it forks a child that runs
 * vm_run_here() (run.c: the VM, the vCPU, the loader, the exit loop)
 * confined, and reports how the child ended.  record/ builds the specs from
 * the CLI's requests and turns the results into records.
 */
#ifndef EL_RUN_H
#define EL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "confine.h"
#include "cpuid.h"
#include "entrylab/abi.h"

/* Which kernel boots (--guest; record key guest.kind). */
enum el_guest_kind {
	EL_GUEST_ENTRYLAB, /* ours, guest-kernel/ (the default) */
	EL_GUEST_LINUX,    /* a Linux kernel with entrylab's /init (include/entrylab/linux_init.h) */
	EL_GUEST_KINDS
};
static const char *const el_guest_kind_names[EL_GUEST_KINDS] = {"entrylab", "linux"};

/*
 * What a Linux guest's /init reported in its INFO frame (linux_init.h):
 * each a line as Linux showed it, "" when not reported.
 */
struct el_linux_info {
	char release[128];     /* uname -r */
	char cmdline[4096];    /* /proc/cmdline */
	char meltdown[128];    /* .../vulnerabilities/meltdown */
	char clocksource[64];  /* current_clocksource */
	char vsyscall[16];     /* none | xonly | emulate */
	char ktext[24];        /* _text's address, hex ("" hidden) */
};

struct el_run_spec {
	enum el_guest_kind guest;       /* --guest */
	struct el_cpu_request cpu;        /* parsed --cpu */
	const char *append;               /* user's --append ("" if none), already validated */
	uint64_t mem_bytes;               /* --memory */
	double timeout_s;                 /* --timeout; 0 = none */
	int pin_cpu;                      /* --pin; -1 = none */
	bool verbose;                     /* -v: guest console to stderr as it arrives */
	bool program_output_to_stderr;    /* the program's stdout goes to stderr (--json, -x) */
	const unsigned char *kernel;      /* guest kernel ELF image (Linux: vmlinux or bzImage) */
	size_t kernel_len;
	const char *kernel_file;          /* Linux: the file that boots, for the record; else NULL */
	const char *kernel_format;        /* Linux: how it boots (linux_kind_names[]); else NULL */
	const unsigned char *initrd;      /* newc cpio, PVH module 0; NULL = none */
	size_t initrd_len;
	const char *init_args;            /* argv[1..] of /init, quoted, after " -- "; NULL = none */
	const char *argv0;                /* /init's argv[0], quoted, for el.argv0=; NULL = its path */
	uint64_t events[EL_MAX_COUNTERS]; /* raw event configs for the guest PMU */
	unsigned nr_events;
	enum el_region_scope region_scope; /* resolved before boot (vmm/region_scope.h); NONE: no program */
};

/*
 * Linux mode: what Linux probed where entrylab has nothing (vmm.legacy_io in
 * the record): port reads answered all ones, writes dropped, both counted,
 * per port for the first EL_LEGACY_PORTS ports seen; MMIO the same.
 */
#define EL_LEGACY_PORTS 64
struct el_legacy_io {
	uint64_t reads, writes;           /* port accesses (a string instruction's each) */
	uint64_t mmio_reads, mmio_writes; /* accesses where there is no RAM and no device */
	uint64_t mmio_first;              /* the first one's address */
	unsigned nr_ports;                /* ports[] in use */
	struct el_legacy_port {
		uint16_t port;
		uint64_t reads, writes;
	} ports[EL_LEGACY_PORTS];
};

/* Port I/O devices of the VMM (vmm/exit_io.c): COM1, exit port, hypercalls. */
#define EL_IO_DEVICES 4
const char *exit_io_device_name(unsigned i);

enum el_run_status {
	EL_RUN_OK,           /* guest exited through the exit port with a status */
	EL_RUN_GUEST_CRASH,  /* the guest did it: triple fault, panic, emulation failure */
	EL_RUN_GUEST_BAD_IO, /* unknown port/MMIO, malformed hypercall, malformed or inconsistent report */
	EL_RUN_TIMEOUT,
	EL_RUN_VMM_ERROR,    /* the VMM or KVM: ioctl failure, first entry refused, KVM-internal error */
	EL_RUN_UNSUPPORTED,  /* the host cannot give what the spec asks */
};

struct el_run_result {
	enum el_run_status status;
	char detail[512];         /* one line: what happened, named */
	char regs[2048];          /* register dump when the guest stopped abnormally */
	char exit_reason[48];     /* last KVM exit reason by name */
	int exit_status;          /* user program's status (status OK) */
	uint32_t panic_vector;    /* guest kernel panic: vector (EL_PANIC_SOFTWARE if none) */
	bool have_boot, have_run; /* validated reports received */
	bool have_linux;           /* an INFO frame from a Linux guest's /init was read */
	struct el_linux_info linux_info;
	struct el_report boot;
	struct el_report run;
	struct el_cpuid vcpu_cpuid; /* KVM_GET_CPUID2 after KVM_SET_CPUID2 */
	uint64_t tsc_khz;           /* KVM_GET_TSC_KHZ, 0 if unknown */
	uint64_t exits_total;       /* userspace exits of the whole run */
	uint64_t io_exits[EL_IO_DEVICES]; /* of those, port I/O per device (exit_io_device_name) */
	uint64_t region_exits;      /* userspace exits between REGION_BEGIN and REGION_END */
	struct el_legacy_io legacy; /* Linux mode: what Linux probed where there is nothing */
	bool region_begun, region_ended;
	double boot_ms;             /* VM creation to first report (Linux: to /init's BOOT frame) */
	double wall_ms;             /* VM creation to end */
	char *console;              /* COM1 as kept (common/output_cap.h; malloc'd, raw bytes) */
	size_t console_len;
	uint64_t console_bytes;     /* everything the guest wrote to its console */
	uint64_t console_dropped;   /* of those, not kept (a marker in console says where) */
	uint64_t output_bytes;      /* the program's stdout+stderr bytes for the host */
	uint64_t output_dropped;    /* of those, not written: the reader stalled past the deadline */
	long peak_rss_kb;           /* the VMM process's peak RSS (getrusage), 0: not measured */
	struct el_confine_info jail; /* the VMM's confinement as it read it back (confine.h) */
};

/*
 * The exit port's 32-bit value (abi.h) as the run's end: a status 0..255 is
 * EL_RUN_OK with exit_status; EL_PORT_EXIT_PANIC + vector EL_RUN_GUEST_CRASH with
 * panic_vector and the vector named in detail; anything else
 * EL_RUN_GUEST_BAD_IO.  Pure (vmm/dev/exit_port.c); the Bochs engine maps
 * its EXIT frame with it too.  Returns res->status.
 */
enum el_run_status exit_value_apply(uint32_t v, struct el_run_result *res);

/* Boots the guest once; always fills *res (status says how it ended). */
void el_vm_run(const struct el_run_spec *spec, struct el_run_result *res);
void el_run_result_free(struct el_run_result *res);

#endif
