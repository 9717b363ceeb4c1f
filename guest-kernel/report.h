/*
 * The boot report: printed on the console and handed to the VMM as
 * struct el_report (abi.h) through the EL_HC_REPORT hypercall.
 */
#ifndef EL_REPORT_H
#define EL_REPORT_H

#include "entrylab/abi.h"
#include "selfcheck.h"

/* Fills the report from the set-up state; after config_resolve(). */
void report_build_boot(const struct selfcheck_result *sc);
void report_print_boot(void);
/* 32-bit OUT of the report's physical address to EL_PORT_HCALL + EL_HC_REPORT. */
void report_send(void);
/*
 * The RUN report: boot report fields plus the region, counters, unknown
 * syscalls, exit status, and the region's scope: scope (the one asked for)
 * when the region is valid, EL_REGION_SCOPE_NONE when none was measured.
 */
void report_send_run(const struct el_region *region, enum el_region_scope scope,
		     uint64_t unknown_syscalls, int32_t status);

#endif
