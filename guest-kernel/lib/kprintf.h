/*
 * Formatted output for the kernel: a small printf.
 *
 * Conversions: %d %i %u %o %x %X %p %s %c %%; length l, ll, z; flags '-' and '0';
 * field width (number or *); precision for %s (number or *), so that
 * "%.*s" prints strings that are not NUL-terminated.
 */
#ifndef EL_KPRINTF_H
#define EL_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>

#include "kernel.h"

typedef void kprintf_sink(void *ctx, char c);

void kvformat(kprintf_sink *sink, void *ctx, const char *fmt, va_list ap);
void kprintf(const char *fmt, ...) __printf(1, 2);
void kvprintf(const char *fmt, va_list ap);
/* Like snprintf: always NUL-terminates (size > 0), returns the full length. */
size_t ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif
