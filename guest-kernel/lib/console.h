/*
 * The console: COM1's transmit register, or the VMM's console stream
 * (EL_HC_WRITE) once hostio_init() found the entrylab VMM.
 */
#ifndef EL_CONSOLE_H
#define EL_CONSOLE_H

#include <stddef.h>

void console_putc(char c);
/* A whole buffer: one exit per call under entrylab. */
void console_write(const char *s, size_t len);
/* COM1 only, whoever listens (QEMU -kernel, early boot). */
void com1_write(const char *s, size_t len);

#endif
