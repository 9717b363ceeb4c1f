/*
 * The shared limits' checks (el_limits.h): the one test of a guest memory size
 * that the CLI, the experiment files and the VMM's allocator all apply.
 */
#include <stdio.h>

#include "el_limits.h"

int el_limits_mem_check(uint64_t bytes, char *err, size_t errlen)
{
	const char *why = bytes < EL_MEM_MIN     ? "below the minimum"
			  : bytes > EL_MEM_MAX   ? "above the maximum"
			  : bytes % EL_MEM_ALIGN ? "not a multiple of 4 KiB"
						 : NULL;

	if (!why)
		return 0;
	snprintf(err, errlen,
		 "guest memory (--memory) of %llu bytes is %s; give a multiple of 4 KiB "
		 "between %lluM and %lluG (e.g. 256M)",
		 (unsigned long long)bytes, why, EL_MEM_MIN >> 20, EL_MEM_MAX >> 30);
	return -1;
}
