/* Region markers: the out-of-line part (failure reporting, detection). */
#include "region.h"

#include <errno.h>
#include <stdio.h>

#include "region_linux.h"

static int begin_failed, end_failed, linux_used;

/* Once per program, whoever finds out first (the probe or a marker). */
void el_region_warn_unmarked(void)
{
	static int said;

	if (!said && !el_region_linux_attached())
		fprintf(stderr, "region markers: syscall %d is unknown here (not the entrylab "
			"kernel): running unmarked\n", EL_SYS_REGION);
	said = 1;
}

void el_region_failed(long ret, int op, uint64_t iterations)
{
	static int said;
	int done;

	if (ret == -ENOSYS) {
		/* Linux: the region page of entrylab's /init, if there is one. */
		done = op == EL_REGION_BEGIN ? el_region_linux_begin(iterations)
					     : el_region_linux_end();
		if (done == 0) {
			linux_used = 1;
			return;
		}
	}
	if (op == EL_REGION_BEGIN)
		begin_failed = 1;
	else
		end_failed = 1;
	if (ret == -ENOSYS) {
		el_region_warn_unmarked();
	} else if (!said) {
		said = 1;
		fprintf(stderr, "region markers: %s failed with %ld: the region is not measured; "
			"see the guest kernel's console (-v)\n",
			op == EL_REGION_BEGIN ? "begin" : "end", ret);
	}
}

bool el_region_marked(void)
{
	return !begin_failed && !end_failed && (linux_used || el_entrylab());
}

bool el_entrylab(void)
{
	static int known, answer;

	/* Not a marker site: the query is no region boundary. */
	if (!known) {
		answer = el_syscall2(EL_SYS_REGION, EL_REGION_QUERY, 0) != -ENOSYS;
		known = 1;
	}
	return answer;
}
