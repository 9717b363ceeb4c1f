/*
 * Boot self-checks (include/entrylab/selfcheck.def).
 */
#ifndef EL_SELFCHECK_H
#define EL_SELFCHECK_H

#include "kernel.h"

enum el_selfcheck {
#define EL_SELFCHECK(id, name, desc) EL_SC_##id,
#include "entrylab/selfcheck.def"
#undef EL_SELFCHECK
	EL_SC_COUNT
};

_Static_assert(EL_SC_COUNT <= 32, "el_report.selfcheck_* hold 32 checks");

struct selfcheck_result {
	uint32_t run;    /* bit i: check i ran */
	uint32_t failed; /* bit i: check i failed */
};

/* Runs every check that applies; prints one line per check. After config_resolve(). */
struct selfcheck_result selfcheck_run_all(void);

#endif
