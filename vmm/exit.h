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

struct el_loop {
	struct el_vm *vm;
	const struct el_run_spec *spec;
	struct el_run_result *res;
	struct el_console con;
	struct timespec t0;     /* VM creation: boot_ms and wall_ms count from here */
	uint64_t region_start;  /* exits_total at REGION_BEGIN */
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
double loop_ms(const struct el_loop *l);

/*
 * Handles the exit in l->vm->run (one table lookup by exit reason).  Needs
 * no vCPU: a fuzzer or a unit test can feed it a recorded kvm_run.
 */
void exit_dispatch(struct el_loop *l);

/* Runs the vCPU until a handler or the timeout stops it. */
void exit_loop_run(struct el_loop *l);
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
