/*
 * SHA-256 (FIPS 180-4), for content keys on the host: the trace's kernel
 * symbol cache is keyed by the kernel file's hash.  Pure.
 */
#ifndef EL_SHA256_H
#define EL_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct el_sha256 {
	uint32_t h[8];
	uint64_t len;         /* bytes hashed so far */
	unsigned char buf[64];
	size_t used;          /* bytes in buf */
};

void el_sha256_init(struct el_sha256 *c);
void el_sha256_update(struct el_sha256 *c, const void *p, size_t n);
void el_sha256_final(struct el_sha256 *c, unsigned char out[32]);
/* The hash of p[0..n) as 64 lower-case hex digits and a NUL. */
void el_sha256_hex(const void *p, size_t n, char out[65]);

#endif
