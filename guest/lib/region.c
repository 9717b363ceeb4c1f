/* Region markers: the out-of-line part (failure reporting, detection). */
#include "region.h"

#include <errno.h>
#include <stdio.h>

static int begin_ok, end_ok, warned;

void el_region_failed(long ret, int op)
{
	const char *what = op == EL_REGION_BEGIN ? "begin" : "end";

	/* Undo the optimistic success the inline path implies. */
	if (op == EL_REGION_BEGIN)
		begin_ok = -1;
	else
		end_ok = -1;
	if (warned)
		return;
	warned = 1;
	if (ret == -ENOSYS)
		fprintf(stderr, "region markers: syscall %d is unknown here (not the entrylab "
			"kernel): running unmarked\n", EL_SYS_REGION);
	else
		fprintf(stderr, "region markers: %s failed with %ld: the region is not "
			"measured; check the guest kernel console\n", what, ret);
}

bool el_region_marked(void)
{
	return begin_ok == 0 && end_ok == 0 && el_entrylab();
}

bool el_entrylab(void)
{
	static int known, answer;

	if (!known) {
		answer = el_region_syscall(EL_REGION_QUERY, 0) != -ENOSYS;
		known = 1;
	}
	return answer;
}
