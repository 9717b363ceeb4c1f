/*
 * pagefault: zero-page read faults (seeds 000/001).  Each round maps SIZE
 * bytes PROT_READ private anonymous at an address that is not 2 MiB aligned,
 * reads one word per 4 KiB page (each read maps the shared zero page) and
 * unmaps it.  The seed's workload is `pagefault 1G 100`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "lib/bench.h"
#include "lib/region.h"

#define PAGE 4096ul
#define HUGE (2ul << 20)

static const struct el_bench bench = {
	.name = "pagefault",
	.synopsis = "[SIZE] [ROUNDS]",
	.help = "  SIZE    bytes mapped and touched per round (default 4M; K, M, G suffixes)\n"
		"  ROUNDS  map/touch/unmap rounds (default 10; the seed: pagefault 1G 100)\n"
		"  iterations = page faults = ROUNDS * SIZE / 4096\n",
	.max_args = 2,
};

/*
 * A free range of size + 2 MiB, then 8 KiB past its first 2 MiB boundary:
 * the hint keeps every round at the same not-hugepage-aligned address.
 */
static void *pick_hint(uint64_t size)
{
	void *p = mmap(NULL, size + HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, size + HUGE);
	a = ((uintptr_t)p + HUGE - 1) & ~(HUGE - 1);
	return (void *)(a + 2 * PAGE);
}

int main(int argc, char **argv)
{
	uint64_t size, rounds, pages, sum = 0, t0, t1, r;
	char *first = NULL;
	void *hint;
	int err = 0;

	el_bench_start(&bench, argc, argv);
	size = el_arg_size(&bench, argc, argv, 1, 4ul << 20);
	rounds = el_arg_count(&bench, argc, argv, 2, 10);
	size = (size + PAGE - 1) & ~(PAGE - 1);
	if (!size || size > (1ul << 46))
		el_usage_error(&bench, "SIZE must be between 1 and 64T");
	pages = size / PAGE;
	if (rounds > UINT64_MAX / pages)
		el_usage_error(&bench, "ROUNDS * SIZE / 4096 overflows");

	/* Linux would map huge zero pages where it can; the entrylab kernel has none. */
	if (!el_entrylab())
		prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	hint = pick_hint(size);

	t0 = el_now_ns();
	el_region_begin(rounds * pages);
	for (r = 0; r < rounds; r++) {
		char *p = mmap(hint, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			err = errno;
			break;
		}
		for (uint64_t off = 0; off < size; off += PAGE)
			sum += *(volatile const unsigned long *)(p + off);
		munmap(p, size);
		if (!first)
			first = p;
	}
	el_region_end();
	t1 = el_now_ns();

	if (err) {
		fprintf(stderr, "pagefault: mmap of %llu bytes failed in round %llu: %s\n",
			(unsigned long long)size, (unsigned long long)r, strerror(err));
		return 1;
	}
	el_result(&bench, rounds * pages, t1 - t0,
		  "size=%llu rounds=%llu addr=%p hugepage_aligned=%d sum=%llu",
		  (unsigned long long)size, (unsigned long long)rounds, (void *)first,
		  first && ((uintptr_t)first & (HUGE - 1)) == 0, (unsigned long long)sum);
	return sum != 0;
}
