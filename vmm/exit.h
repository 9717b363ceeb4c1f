/*
 * The exit loop and the devices behind it: what one run's KVM_RUN loop
 * carries around (struct el_loop), the I/O dispatch contract, and the
 * handlers of the port table (exit_io.c).  Internal to the VMM.
 */
#ifndef EL_EXIT_H
#define EL_EXIT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "frame.h"
#include "run.h"
#include "uart.h"
#include "vm.h"

#include "text_keep.h"

struct el_console {
	struct text_keep keep; /* head + newest tail, common/output_cap.h */
	bool keep_ready;
	char line[256];     /* -v: output goes to stderr a line at a time */
	size_t line_len;
	struct uart16550 uart; /* COM1's registers (uart.h) */
};

/*
 * Linux mode (spec->guest == EL_GUEST_LINUX, linux_mode.c): what the loop
 * keeps for a Linux guest on top of what it keeps for ours.  NULL in
 * el_loop for our kernel, whose devices and exits stay as they were.
 */
struct el_linux_mode {
	struct frame_split split;  /* COM1: /init's frame lines apart from Linux's console */
	size_t frames_seen;        /* frame bytes already looked at (the BOOT frame: boot_ms) */
	bool irq_level;            /* COM1's interrupt (IRQ 4) as last given to KVM */
	bool by_port;              /* the run ended by a write to the exit port: exit_value */
	uint32_t exit_value;
	char line[160];            /* the console line being written */
	size_t line_len;
	char last_line[160];       /* the last one ended, as Linux or /init wrote it */
	char panic[160];           /* Linux's last "Kernel panic - not syncing" line */
	uint8_t rtc_index;         /* CMOS register selected at port 0x70 */
};

struct el_loop {
	struct el_vm *vm;
	const struct el_run_spec *spec;
	struct el_run_result *res;
	struct el_console con;
	struct timespec t0;     /* VM creation: boot_ms and wall_ms count from here */
	uint64_t region_start;  /* exits_total at REGION_BEGIN */
	struct el_linux_mode *lx; /* Linux mode's state; NULL for our kernel */
	bool stop;
};

/* One port access, as KVM_EXIT_IO hands it over (data: size * count bytes). */
struct el_io {
	uint16_t port;
	uint8_t size;
	uint32_t count;
	bool out;
	uint8_t *data;
};

typedef void el_io_fn(struct el_loop *l, const struct el_io *io);

/* Ends the run with status and a one-line detail; the first call wins. */
void loop_stop(struct el_loop *l, enum el_run_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Milliseconds since the VM was created (l->t0). */
double loop_ms(const struct el_loop *l);

/*
 * Handles the exit in l->vm->run: one lookup by exit reason, in our
 * kernel's table or, in Linux mode, in Linux's (exit_loop.c).  Needs no
 * vCPU: a fuzzer or a unit test can feed it a recorded kvm_run.
 */
void exit_dispatch(struct el_loop *l);

/* Runs the vCPU until l->stop: a handler, the timeout or a failed KVM_RUN. */
void exit_loop_run(struct el_loop *l);
/* "KVM_EXIT_HLT" for its reason, "KVM_EXIT_<n>" for one with no name (exit_names.c). */
const char *kvm_exit_name(uint32_t reason);

/* Failures, classed guest-crash or vmm-error by who caused them (exit_fault.c). */
void exit_hlt(struct el_loop *l);
void exit_shutdown(struct el_loop *l);
void exit_system_event(struct el_loop *l);
void exit_fail_entry(struct el_loop *l);
void exit_internal_error(struct el_loop *l);

/* KVM_EXIT_IO: dispatches by port (exit_io.c). */
void exit_io(struct el_loop *l);

el_io_fn dev_console_io; /* COM1 */
el_io_fn dev_exit_io;    /* isa-debug-exit port */
el_io_fn hcall_io;       /* EL_PORT_HCALL + nr */
el_io_fn dev_post_io;    /* port 0x80, POST codes: ignored */

/* Linux mode's devices (linux_mode.c, dev/legacy.c, dev/exit_port.c). */
el_io_fn dev_exit_linux_io; /* the exit port: its value, checked against /init's EXIT frame */
el_io_fn dev_legacy_io;     /* a port no device claims: reads all ones, writes dropped, counted */
el_io_fn dev_i8042_io;      /* 0x64: 0xfe resets the machine; otherwise as dev_legacy_io */
el_io_fn dev_cf9_io;        /* 0xcf9: a write with bit 2 resets the machine; otherwise legacy */
el_io_fn dev_rtc_io;        /* 0x70/0x71: the CMOS clock, read-only (dev/rtc.c) */
#define EL_PORT_RTC_INDEX 0x70u
/* CMOS register index as Linux reads it at 0x71, the time now (pure, dev/rtc.c). */
uint8_t rtc_cmos_read(uint8_t index, time_t now);
void exit_mmio_linux(struct el_loop *l);     /* MMIO where there is nothing: all ones, counted */
void exit_shutdown_linux(struct el_loop *l); /* triple fault: Linux reset the machine */

/* Ends a Linux run: Linux reset the machine (how, e.g. "through port 0xcf9"). */
void linux_reset(struct el_loop *l, const char *how);
/* A byte Linux sent on COM1 (THR): into the frame split, console bytes on to console_put. */
void linux_com1_tx(struct el_loop *l, char ch);
/* COM1's interrupt line to KVM (KVM_IRQ_LINE, IRQ 4) when its level changed. */
void linux_com1_irq(struct el_loop *l);
/* Linux mode's state: 0, or -1 with a message in err. */
int linux_mode_init(struct el_linux_mode *lx, struct el_loop *l, char *err, size_t errlen);
/*
 * After the loop: the frames decoded and checked (frame_result) against
 * how the run ended: by the exit port (the EXIT frame must agree), or by a
 * reset, a crash or the timeout (that ending stays; INFO and BOOT are still
 * taken for the record).  Before console_finish().
 */
void linux_mode_finish(struct el_loop *l);
void linux_mode_free(struct el_linux_mode *lx);

/* Hands the console buffer to res (console, console_len). */
/* One byte of guest console (COM1 or the EL_HC_WRITE console stream). */
void console_put(struct el_loop *l, char ch);
void console_finish(struct el_loop *l);
void console_free(struct el_console *c);

/* Report validation (hcall_report_check, report_check): report_check.h. */
#include "report_check.h"

/* Exception mnemonic ("#PF") from include/entrylab/exceptions.def; NULL for reserved and >= 32. */
const char *x86_vector_name(uint32_t vector);

#endif
