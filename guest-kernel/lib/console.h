/*
 * The console: COM1's transmit register, or the VMM's console stream
 * (EL_HC_WRITE) once hostio_init() found the entrylab VMM.  Under the VMM
 * the text is buffered (up to EL_WRITE_MAX bytes) and leaves at
 * console_flush(), or when the buffer is full.
 */
#ifndef EL_CONSOLE_H
#define EL_CONSOLE_H

#include <stddef.h>

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
/* COM1 only, whoever listens (QEMU -kernel, early boot). */
void com1_write(const char *s, size_t len);

#endif
