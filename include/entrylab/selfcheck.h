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

static const struct el_selfcheck_desc el_selfchecks[] = {
#define EL_SELFCHECK(id, name_, desc_) {.name = name_, .description = desc_},
#include "selfcheck.def"
#undef EL_SELFCHECK
};

#define EL_SELFCHECK_COUNT (sizeof(el_selfchecks) / sizeof(el_selfchecks[0]))

#endif
