/*
 * The benchmarks built into entrylab (guest/benches.def): static musl
 * binaries embedded at build time, packed into the guest's initrd as /init,
 * and what one iteration of each is (bench_iter.c).
 */
#ifndef EL_BENCH_H
#define EL_BENCH_H

#include <stddef.h>
#include <stdint.h>

struct el_bench {
	const char *name;
	const char *description;
	const char *seed;
	const char *default_args; /* what the program assumes when given none */
	const char *unit;         /* one iteration: "page fault", "syscall", "call", ... */
	int iter_arg;             /* which argument -n replaces; -1: none (pagefault) */
	const unsigned char *image;
	size_t image_len;
};

/* NULL if there is no such benchmark. */
const struct el_bench *bench_find(const char *name);
/* The i-th benchmark, NULL past the end. */
const struct el_bench *bench_at(unsigned i);

/*
 * The iterations a benchmark's arguments ask for, computed as the program
 * computes the count it declares to el_region_begin() (guest/bench_*.c):
 * the same parsing (counts with k/M/G = powers of 1000, sizes with K/M/G =
 * powers of 1024), the same defaults.  For pagefault, iterations = page
 * faults = rounds * pages, with rounds and size (bytes, page-rounded) beside
 * it; the others leave them 0.
 */
struct el_bench_iter {
	uint64_t iterations; /* 0: the arguments do not say (the program will refuse them) */
	const char *unit;
	uint64_t rounds, size;
};
void bench_iterations(const struct el_bench *b, char *const *argv, int argc,
		      struct el_bench_iter *out);

#endif
