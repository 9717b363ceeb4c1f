/*
 * Names of the guest's self-checks (selfcheck.def) for the host side: the
 * bit i of el_report.selfcheck_run/failed is el_selfchecks[i].
 */
#ifndef ENTRYLAB_SELFCHECK_H
#define ENTRYLAB_SELFCHECK_H

struct el_selfcheck_desc {
	const char *name;
	const char *description;
};

/* How many self-checks there are: one per selfcheck.def row. */
enum {
	EL_SELFCHECK_COUNT = 0
#define EL_SELFCHECK(id, name, desc) + 1
#include "selfcheck.def"
#undef EL_SELFCHECK
};

/* One row per selfcheck.def line, in its order (common/abi_tables.c). */
extern const struct el_selfcheck_desc el_selfchecks[EL_SELFCHECK_COUNT];

#endif
