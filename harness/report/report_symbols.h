/*
 * Per-symbol differences between trace records (`entrylab compare` of
 * `entrylab trace` or `matrix --trace` records): for every group against its
 * baseline, each symbol's instruction count in both, the difference, and the
 * difference per iteration.  Absolute numbers only: a symbol absent from the
 * baseline has no percentage to give.
 */
#ifndef EL_REPORT_SYMBOLS_H
#define EL_REPORT_SYMBOLS_H

#include <stdio.h>

#include "report.h"

/* Symbols shown per group pair when the caller passes 0. */
#define REPORT_SYMBOLS_TOP 20

/*
 * After report_resolve_baselines(): one table per group whose runs and
 * whose baseline's runs carry trace.symbols, the `top` largest differences
 * first; prints nothing when fewer than two groups have traces.
 */
void report_print_symbols(FILE *f, const struct report *r, unsigned top);

#endif
