/*
 * markercheck [N]: include/entrylab/marker.h as a user's program uses it,
 * from two translation units (this one begins the region, markercheck_end.c
 * ends it), compiled -std=c99 -pedantic-errors -Wall -Wextra -Werror with
 * nothing but the header and libc (guest/CMakeLists.txt).  N getppid calls
 * in the region (default 1000), declared as N iterations.  Exit 1 when the
 * two units do not share the markers' one state (the region page mapped
 * by one would then be unknown to the other); the record says whether the
 * region was measured (tests/kvm/test_region_scope.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <entrylab/marker.h>

#include "markercheck.h"

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, i;
	long sum = 0;

	if (argc > 2 || n == 0) {
		fprintf(stderr, "usage: markercheck [N > 0]\n");
		return 2;
	}
	if (markercheck_state() != &el_marker_state) {
		fprintf(stderr, "markercheck: the two units see two marker states\n");
		return 1;
	}
	el_region_begin(n);
	for (i = 0; i < n; i++)
		sum += markercheck_call();
	markercheck_end();
	printf("markercheck iterations=%lu sum=%ld abi=%d\n", n, sum, EL_MARKER_ABI);
	return 0;
}
