/*
 * The public marker header (include/entrylab/marker.h) in the programs
 * built on it: the examples (guest/examples/) list the sites the host
 * resolves a run's scope by (none: whole-program; some: marked), and
 * markercheck (C99, pedantic, two units) lists one per unit.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "array_size.h"
#include "entrylab/linux_init.h"
#include "host_elf.h"
#include "host_io.h"

#define SITES_MAX 16

/* The sites of build/guest/PATH; their count. */
static int sites_of(const char *path, struct el_region_site *s)
{
	char file[512], why[256];
	size_t len;
	char *img;
	int n;

	snprintf(file, sizeof(file), "%s/guest/%s", EL_BINARY_DIR, path);
	img = io_read_file(file, 64u << 20, &len, why, sizeof(why));
	cr_assert_not_null(img, "%s: %s", file, why);
	n = elf_region_sites(img, len, s, SITES_MAX, why, sizeof(why));
	cr_assert_geq(n, 0, "%s: %s", file, why);
	free(img);
	return n;
}

Test(marker_programs, unmarked_example_lists_no_site)
{
	struct el_region_site s[SITES_MAX];

	cr_expect_eq(sites_of("examples/touch-pages", s), 0);
}

Test(marker_programs, marked_examples_list_a_begin_and_an_end)
{
	static const char *const marked[] = {"examples/touch-pages-marked",
					     "examples/touch-pages-if", "markercheck"};

	for (size_t i = 0; i < EL_ARRAY_SIZE(marked); i++) {
		struct el_region_site s[SITES_MAX];
		int n = sites_of(marked[i], s), begins = 0, ends = 0;

		for (int k = 0; k < n; k++) {
			begins += s[k].op == EL_REGION_BEGIN;
			ends += s[k].op == EL_REGION_END;
		}
		cr_expect_eq(begins, 1, "%s: %d BEGIN sites", marked[i], begins);
		cr_expect_eq(ends, 1, "%s: %d END sites", marked[i], ends);
	}
}
