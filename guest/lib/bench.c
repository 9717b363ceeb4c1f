/* Shared benchmark plumbing: argument parsing, timing, the result line. */
#include "bench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse_num.h"
#include "region.h"
#include "vdso.h"

const char *const el_path_names[] = { "libc", "vdso", "syscall", NULL };

static void print_usage(const struct el_bench *b, FILE *f)
{
	fprintf(f, "usage: %s %s\n%s", b->name, b->synopsis, b->help);
}

void el_bench_start(const struct el_bench *b, int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		print_usage(b, stdout);
		exit(0);
	}
	if (argc - 1 > b->max_args)
		el_usage_error(b, "too many arguments (%d, at most %d)", argc - 1, b->max_args);
	/* Probe now, so a Linux host hears "unmarked" before the timed part. */
	if (!el_entrylab())
		el_region_warn_unmarked();
}

void el_usage_error(const struct el_bench *b, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", b->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage(b, stderr);
	exit(EL_EXIT_USAGE);
}

uint64_t el_arg_count(const struct el_bench *b, int argc, char **argv, int i, uint64_t def)
{
	uint64_t v;

	if (i >= argc)
		return def;
	if (el_parse_scaled(argv[i], "kMG", 1000, &v))
		el_usage_error(b, "'%s' is not a count (digits, optional k, M or G)", argv[i]);
	return v;
}

uint64_t el_arg_size(const struct el_bench *b, int argc, char **argv, int i, uint64_t def)
{
	uint64_t v;

	if (i >= argc)
		return def;
	if (el_parse_scaled(argv[i], "KMG", 1024, &v) &&
	    el_parse_scaled(argv[i], "kmg", 1024, &v))
		el_usage_error(b, "'%s' is not a size (digits, optional K, M or G)", argv[i]);
	return v;
}

int el_arg_word(const struct el_bench *b, int argc, char **argv, int i,
		const char *const *words, int def)
{
	char list[128] = "";

	if (i >= argc)
		return def;
	for (int w = 0; words[w]; w++)
		if (strcmp(argv[i], words[w]) == 0)
			return w;
	for (int w = 0; words[w]; w++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s", words[w]);
	el_usage_error(b, "'%s' is not one of:%s", argv[i], list);
}

uint64_t el_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void el_result(const struct el_bench *b, uint64_t iterations, uint64_t ns, const char *fmt, ...)
{
	va_list ap;

	printf("%s iterations=%llu", b->name, (unsigned long long)iterations);
	if (fmt && *fmt) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf(" ns_per_iter=%.1f region=%s\n", iterations ? (double)ns / (double)iterations : 0.0,
	       el_region_marked() ? "marked" : "unmarked");
}

void *el_path_resolve(const struct el_bench *b, enum el_path *path, const char *sym)
{
	void *fn;

	if (*path != EL_PATH_VDSO)
		return NULL;
	fn = el_vdso_sym(sym);
	if (!fn) {
		fprintf(stderr, "%s: %s, so the syscall is measured instead\n", b->name,
			el_vdso_base() ? "the vDSO does not export the symbol" :
					 "no vDSO (AT_SYSINFO_EHDR absent)");
		*path = EL_PATH_SYSCALL;
	}
	return fn;
}
