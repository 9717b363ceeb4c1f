/*
 * What one iteration of each benchmark is and how many its arguments ask
 * for (bench.h), mirroring the program's own parsing (guest/lib/bench.c)
 * and its el_region_begin() count (guest/bench_*.c), so that the host knows
 * the count before the run and where no region report comes back (a trace).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "parse_num.h"

#define PAGE 4096ull

/* argv[i] as the program's el_arg_count() reads it; def when absent, 0 when unreadable. */
static uint64_t arg_count(char *const *argv, int argc, int i, uint64_t def)
{
	uint64_t v;

	if (i >= argc)
		return def;
	return el_parse_scaled(argv[i], "kMG", 1000, &v) ? 0 : v;
}

/* argv[i] as el_arg_size() reads it. */
static uint64_t arg_size(char *const *argv, int argc, int i, uint64_t def)
{
	uint64_t v;

	if (i >= argc)
		return def;
	if (el_parse_scaled(argv[i], "KMG", 1024, &v) &&
	    el_parse_scaled(argv[i], "kmg", 1024, &v))
		return 0;
	return v;
}

/* guest/bench_pagefault.c: rounds * pages of the page-rounded size. */
static void pagefault_iter(char *const *argv, int argc, struct el_bench_iter *out)
{
	uint64_t size = arg_size(argv, argc, 0, 4ull << 20);
	uint64_t rounds = arg_count(argv, argc, 1, 10);

	if (size > UINT64_MAX - PAGE)
		return;
	size = (size + PAGE - 1) & ~(PAGE - 1);
	if (!size || size > (1ull << 46) || rounds > UINT64_MAX / (size / PAGE))
		return;
	out->size = size;
	out->rounds = rounds;
	out->iterations = rounds * (size / PAGE);
}

/* Every other bench: its first argument, defaulting to the first word of its defaults. */
static void first_arg_iter(const struct el_bench *b, char *const *argv, int argc,
			   struct el_bench_iter *out)
{
	size_t n = strcspn(b->default_args, " ");
	char first[32] = "";
	uint64_t def = 0;

	if (n && n < sizeof(first)) {
		memcpy(first, b->default_args, n);
		first[n] = '\0';
		def = arg_count((char *const[]){first}, 1, 0, 0);
	}
	out->iterations = arg_count(argv, argc, 0, def);
}

void bench_iterations(const struct el_bench *b, char *const *argv, int argc,
		      struct el_bench_iter *out)
{
	memset(out, 0, sizeof(*out));
	out->unit = b->unit;
	if (!strcmp(b->name, "pagefault"))
		pagefault_iter(argv, argc, out);
	else
		first_arg_iter(b, argv, argc, out);
}
