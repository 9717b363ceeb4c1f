/*
 * Random bytes for the kernel (AT_RANDOM, stack canaries) and for
 * getrandom(): RDRAND, else RDSEED, else a xoshiro256** generator seeded
 * from the TSC and the clocks.  Never blocks: the pool counts as ready.
 */
#ifndef EL_RANDOM_H
#define EL_RANDOM_H

#include "kernel.h"

void random_bytes(void *buf, size_t n);

/* Which source random_bytes() uses: "rdrand", "rdseed" or "xoshiro256**". */
const char *random_source(void);

#endif
