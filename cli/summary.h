/* Human-readable output of `entrylab run`. */
#ifndef EL_SUMMARY_H
#define EL_SUMMARY_H

#include <stdio.h>

#include "cli.h"
#include "host_info.h"
#include "run.h"

void summary_print(FILE *f, const struct el_cli_run *cli, const struct el_host_info *host,
		   const struct el_run_result *res, const char *output);
/* The counters, perf-stat style (summary_counters.c): table lines, CSV lines. */
void summary_counters_print(FILE *f, const struct el_cli_run *cli,
			    const struct el_run_result *res);
void summary_counters_csv(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res);
/* perf-stat-like CSV (-x SEP). */
void summary_csv(FILE *f, const struct el_cli_run *cli, const struct el_run_result *res);

#endif
