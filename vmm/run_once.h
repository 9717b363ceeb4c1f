/*
 * One `entrylab run` boot as functions (cmd_run.c), for commands that boot
 * many times (matrix): the program, initrd and kernel prepared as `run`
 * prepares them, the record built as `run` builds it.
 */
#ifndef EL_RUN_ONCE_H
#define EL_RUN_ONCE_H

#include <json-c/json.h>

#include "cli.h"
#include "host_info.h"
#include "run.h"

/*
 * After cli_run_parse(): the benchmark or --exec program, its arguments,
 * the initrd and the kernel image, all checked.  0, or an EL_EXIT_* code
 * after printing why.  Storage is per process; a second call replaces it.
 */
int run_prepare(struct el_cli_run *cli);

/*
 * Boots once (el_vm_run), applies --strict, and returns the new record
 * (caller puts it); *res is filled, free it with el_run_result_free().
 */
struct json_object *run_once(struct el_cli_run *cli, const struct el_host_info *host,
			     struct el_run_result *res);

#endif
