/*
 * The console: COM1's transmit register.
 */
#ifndef EL_CONSOLE_H
#define EL_CONSOLE_H

#include <stddef.h>

void console_putc(char c);
void console_write(const char *s, size_t len);

#endif
