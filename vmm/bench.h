/*
 * The benchmarks built into entrylab (guest/benches.def): static musl
 * binaries embedded at build time, packed into the guest's initrd as /init.
 */
#ifndef EL_BENCH_H
#define EL_BENCH_H

#include <stddef.h>

struct el_bench {
	const char *name;
	const char *description;
	const char *seed;
	const char *default_args; /* what the program assumes when given none */
	unsigned iter_arg;        /* which argument -n replaces */
	const unsigned char *image;
	size_t image_len;
};

/* NULL if there is no such benchmark. */
const struct el_bench *bench_find(const char *name);
/* The i-th benchmark, NULL past the end. */
const struct el_bench *bench_at(unsigned i);

#endif
