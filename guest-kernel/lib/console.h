/*
 * The console: the VMM's console stream (EL_HC_WRITE) once hostio_init()
 * found the entrylab VMM, COM1 otherwise.  Under the VMM the text is
 * buffered (up to EL_WRITE_MAX bytes) and leaves at console_flush(), or when
 * the buffer is full; on COM1 each byte leaves at once, after LSR says the
 * UART can take it.
 */
#ifndef EL_CONSOLE_H
#define EL_CONSOLE_H

#include <stddef.h>

/* Right after hostio_init(): without the VMM, programs COM1 (8N1, FIFO, no interrupts). */
void console_init(void);
void console_putc(char c);
/* Appends to the buffer under entrylab; COM1 at once otherwise. */
void console_write(const char *s, size_t len);
/*
 * Sends what the buffer holds (one EL_HC_WRITE; nothing when empty).  Call
 * it before any hypercall the host orders with the console (a report, the
 * program's stdout/stderr: hostio_write does), before the exit (machine_exit
 * does), and before halting or spinning where the host may give up on the
 * guest: text still in the buffer when the VM dies without an exit (a triple
 * fault, the VMM's --timeout) is lost.
 */
void console_flush(void);
/* COM1 only, whoever listens (QEMU -kernel, Bochs): each byte after LSR THR-empty. */
void com1_write(const char *s, size_t len);
/*
 * One framed line (include/entrylab/serial_frame.h) on COM1: kind
 * EL_FRAME_KIND_*, payload len bytes.  For hosts with no hypercall channel.
 */
void console_frame(const char *kind, const void *payload, size_t len);
/* Waits (bounded) until COM1 has sent everything (LSR TEMT): before ending the machine. */
void com1_drain(void);

#endif
