/*
 * tracecheck MODE N: runs one region of exactly known length (tracecheck.h)
 * for `entrylab trace --exec`; MODE is loop, cross or rewrite (N unused).  Exit 0, 2 on bad
 * usage.  On Linux the region syscalls answer -ENOSYS and the loop still runs.
 */
#include <entrylab/abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "array_size.h"
#include "tracecheck.h"

_Static_assert(TC_SYS_REGION == EL_SYS_REGION, "tracecheck.h: EL_SYS_REGION");
_Static_assert(TC_REGION_BEGIN == EL_REGION_BEGIN, "tracecheck.h: EL_REGION_BEGIN");
_Static_assert(TC_REGION_END == EL_REGION_END, "tracecheck.h: EL_REGION_END");

/* A writable, executable page with "movl $1, %eax; ret" for tc_rewrite. */
static long rewrite(unsigned long n)
{
	static const unsigned char code[] = {0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3};
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	(void)n;
	if (p == MAP_FAILED) {
		perror("tracecheck: mmap RWX");
		exit(1);
	}
	memcpy(p, code, sizeof(code));
	return tc_rewrite(p);
}

static const struct {
	const char *name;
	long (*fn)(unsigned long n);
} modes[] = {
	{"loop", tc_loop},
	{"cross", tc_cross},
	{"rewrite", rewrite},
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
	for (size_t i = 0; i < EL_ARRAY_SIZE(modes); i++)
		if (!strcmp(argv[1], modes[i].name)) {
			modes[i].fn(n);
			printf("tracecheck %s %lu done\n", argv[1], n);
			return 0;
		}
usage:
	fprintf(stderr, "usage: tracecheck loop|cross|rewrite N (N >= 1)\n");
	return 2;
}
