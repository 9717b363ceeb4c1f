/*
 * What every benchmark shares: argument parsing with usage errors (exit 2),
 * wall-clock timing outside the region, and the one result line.
 */
#ifndef EL_GUEST_BENCH_H
#define EL_GUEST_BENCH_H

#include <stdint.h>

#define EL_EXIT_USAGE 2
#define EL_EXIT_SKIP 77 /* the program cannot run here (automake's "skipped") */

struct el_bench {
	const char *name;
	const char *synopsis; /* e.g. "[ITERATIONS] [libc|vdso|syscall]" */
	const char *help;     /* one line per argument, with its default */
	int max_args;
};

/* -h/--help prints the usage and exits 0; too many arguments exit 2. */
void el_bench_start(const struct el_bench *b, int argc, char **argv);

_Noreturn void el_usage_error(const struct el_bench *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* argv[i] as a count (k, M, G = powers of 1000), or def when absent. */
uint64_t el_arg_count(const struct el_bench *b, int argc, char **argv, int i, uint64_t def);

/* argv[i] as a size in bytes (K, M, G = powers of 1024), or def when absent. */
uint64_t el_arg_size(const struct el_bench *b, int argc, char **argv, int i, uint64_t def);

/* Index of argv[i] in the NULL-terminated words, or def when absent. */
int el_arg_word(const struct el_bench *b, int argc, char **argv, int i,
		const char *const *words, int def);

/* How the clock and cpu benchmarks reach the kernel. */
enum el_path { EL_PATH_LIBC, EL_PATH_VDSO, EL_PATH_SYSCALL };
extern const char *const el_path_names[]; /* NULL-terminated, in enum order */

/* CLOCK_MONOTONIC in ns, read outside the region (libc, so the vDSO if any). */
uint64_t el_now_ns(void);

/*
 * The result line on stdout:
 *   NAME iterations=N EXTRA ns_per_iter=X region=marked|unmarked
 * EXTRA (printf-style, may be empty) carries the sanity values that keep the
 * compiler from dropping the loop.
 */
void el_result(const struct el_bench *b, uint64_t iterations, uint64_t ns,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * For EL_PATH_VDSO: the address of vDSO symbol `sym`.  Without a vDSO (or
 * the symbol) *path becomes EL_PATH_SYSCALL, said once on stderr, so
 * `vdso=off` measures the syscall as libc would fall back to it.
 */
void *el_path_resolve(const struct el_bench *b, enum el_path *path, const char *sym);

#endif
