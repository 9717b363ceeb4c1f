/*
 * tracecheck MODE N: runs one region of exactly known length (tracecheck.h)
 * for `entrylab trace --exec`; MODE is loop or cross.  Exit 0, 2 on bad
 * usage.  On Linux the region syscalls answer -ENOSYS and the loop still runs.
 */
#include <entrylab/abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecheck.h"

_Static_assert(TC_SYS_REGION == EL_SYS_REGION, "tracecheck.h: EL_SYS_REGION");
_Static_assert(TC_REGION_BEGIN == EL_REGION_BEGIN, "tracecheck.h: EL_REGION_BEGIN");
_Static_assert(TC_REGION_END == EL_REGION_END, "tracecheck.h: EL_REGION_END");

static const struct {
	const char *name;
	long (*fn)(unsigned long n);
} modes[] = {
	{"loop", tc_loop},
	{"cross", tc_cross},
};

int main(int argc, char **argv)
{
	unsigned long n;
	char *end;

	if (argc != 3)
		goto usage;
	n = strtoul(argv[2], &end, 10);
	if (*end || n < 1)
		goto usage;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name)) {
			modes[i].fn(n);
			printf("tracecheck %s %lu done\n", argv[1], n);
			return 0;
		}
usage:
	fprintf(stderr, "usage: tracecheck loop|cross N (N >= 1)\n");
	return 2;
}
