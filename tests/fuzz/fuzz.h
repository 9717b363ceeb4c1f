/* Helpers of the libFuzzer targets (tests/fuzz/fuzz_*.c). */
#ifndef EL_FUZZ_H
#define EL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a malloc'd C string, cut at its first NUL (as argv would be). */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
	size_t n = strnlen((const char *)data, size);
	char *s = malloc(n + 1);

	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = '\0';
	return s;
}

/* A broken property: print it and abort, which libFuzzer reports as a crash. */
static inline void fuzz_fail(const char *why)
{
	fprintf(stderr, "fuzz: property broken: %s\n", why);
	abort();
}

#endif
