/*
 * The memory and string functions the kernel (and the compiler) need.
 */
#ifndef EL_STRING_H
#define EL_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
/* Copies at most size-1 bytes and NUL-terminates (size > 0); returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
