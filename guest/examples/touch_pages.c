/*
 * touch-pages: seed 001's workload written as a user would write their own
 * program.  ROUNDS times: map SIZE bytes PROT_READ private anonymous, read
 * one word per 4 KiB page (each read faults in the shared zero page),
 * unmap.  Plain C and libc; the marked builds add the one header
 * include/entrylab/marker.h.  One source, three programs (README.md):
 *   touch-pages          no markers: entrylab measures it whole
 *   touch-pages-marked   (EXAMPLE_MARKED=1) markers around the rounds,
 *                        declaring ROUNDS * SIZE / 4096 iterations
 *   touch-pages-if       (EXAMPLE_MARKED=2) the same markers, run only when
 *                        the third argument is "mark": by default the
 *                        program is marked and measures nothing
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if EXAMPLE_MARKED
#include <entrylab/marker.h>
#endif

#define PAGE 4096ull

static int usage(const char *why)
{
	if (why)
		fprintf(stderr, "touch-pages: %s\n", why);
	fprintf(stderr,
		"usage: touch-pages [SIZE [ROUNDS%s]]\n"
		"  SIZE    bytes mapped and read per round (default 1M; K, M, G suffixes)\n"
		"  ROUNDS  map/read/unmap rounds (default 4)\n",
		EXAMPLE_MARKED == 2 ? " [mark]" : "");
	return why ? 2 : 0;
}

/* Decimal digits, then K, M or G (powers of 1024) when suffixes; -1 when not that. */
static int parse(const char *s, int suffixes, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == s)
		return -1;
	if (suffixes && *p && !p[1]) {
		const char *k = strchr("KMG", *p);

		if (!k)
			return -1;
		mul = 1ull << (10 * (k - "KMG" + 1));
		p++;
	}
	if (*p || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t size = 1ull << 20, rounds = 4, pages, sum = 0;
	int mark = EXAMPLE_MARKED == 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return usage(NULL);
	if (argc > (EXAMPLE_MARKED == 2 ? 4 : 3))
		return usage("too many arguments");
	if (argc > 1 && (parse(argv[1], 1, &size) || !size || size > (1ull << 40)))
		return usage("SIZE is 1 to 1T bytes");
	if (argc > 2 && parse(argv[2], 0, &rounds))
		return usage("ROUNDS is a number");
	if (argc > 3) {
		if (strcmp(argv[3], "mark"))
			return usage("the third argument can only be \"mark\"");
		mark = 1;
	}
	size = (size + PAGE - 1) & ~(PAGE - 1);
	pages = size / PAGE;
	if (rounds > UINT64_MAX / pages)
		return usage("ROUNDS * SIZE / 4096 overflows");

#if EXAMPLE_MARKED
	if (mark)
		el_region_begin(rounds * pages);
#endif
	for (uint64_t r = 0; r < rounds; r++) {
		char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			fprintf(stderr, "touch-pages: mmap of %llu bytes: %s\n",
				(unsigned long long)size, strerror(errno));
			return 1;
		}
		for (uint64_t off = 0; off < size; off += PAGE)
			sum += *(volatile const unsigned long *)(p + off);
		munmap(p, size);
	}
#if EXAMPLE_MARKED
	if (mark)
		el_region_end();
#endif
	printf("touch-pages size=%llu rounds=%llu faults=%llu sum=%llu markers=%s\n",
	       (unsigned long long)size, (unsigned long long)rounds,
	       (unsigned long long)(rounds * pages), (unsigned long long)sum, mark ? "run" : "none");
	return sum != 0;
}
