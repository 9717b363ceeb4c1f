/*
 * Records: one JSON object per run (results/README.md has the schema),
 * built from the run's request, its spec, the host facts and the result,
 * and appended to a JSON-lines file atomically.
 */
#ifndef EL_RECORD_H
#define EL_RECORD_H

#include <json-c/json.h>

#include "host_info.h"
#include "request.h"
#include "run.h"

#define EL_RECORD_SCHEMA "entrylab.run/1"

/* Record status string and process exit code of a result. */
const char *record_status(const struct el_run_result *res);
int record_exit_code(const struct el_run_result *res);

/*
 * Iterations of a run, in its benchmark's unit (bench.h): what the program
 * declared to its region marker when the run reported a region, else what
 * its arguments ask for (req->iterations after request_programs); 0 unknown.
 */
uint64_t record_iterations(const struct el_run_request *req, const struct el_run_result *res);

/*
 * Why a run with a program has no region figures ("the program's markers
 * never ran ..."), or NULL when it has them or ran no program.  The record
 * says it as region.not_measured, the summary in place of the figures.
 */
const char *record_region_missing(const struct el_run_spec *spec, const struct el_run_result *res);

/* A new record object (caller puts it). */
struct json_object *record_build(const struct el_run_request *req, const struct el_run_spec *spec,
				 const struct el_host_info *host, const struct el_run_result *res);
/* The record's "host" object (record_host.c; caller puts it). */
struct json_object *host_info_json(const struct el_host_info *hi);

/*
 * Boots once (el_vm_run), applies --strict, and returns the new record
 * (caller puts it); *res is filled, free it with el_run_result_free().
 * The one boot `entrylab run` and every matrix boot do (record_run.c).
 */
struct json_object *record_run(const struct el_run_request *req, const struct el_run_spec *spec,
			       const struct el_host_info *host, struct el_run_result *res);
/* Knobs --append asked for that the guest did not set up; 1 if any (printed unless quiet). */
int record_config_mismatch(const struct el_run_request *req, const struct el_run_result *res,
			   bool quiet);

/*
 * Requested event i of a run (record_counters.c): its status, and numbers
 * only where the guest counted.  per_iter = (value - markers) / iterations,
 * the markers' cost taken off when it was measured and is not larger.
 */
struct el_counter_result {
	const char *name; /* as given to -e */
	uint64_t config;  /* the event select asked of the guest; EL_EVENT_NONE: no encoding */
	enum el_counter_status status;
	bool have_value, have_markers, have_per_iter;
	uint64_t value, markers;
	double per_iter;
};
void record_counter(const struct el_run_request *req, const struct el_run_spec *spec,
		    const struct el_run_result *res, unsigned i, struct el_counter_result *out);
const char *record_counter_status_name(enum el_counter_status s);
/* The record's "counters" object and "guest.pmu" object. */
struct json_object *record_counters_json(const struct el_run_request *req,
					 const struct el_run_spec *spec,
					 const struct el_run_result *res);
struct json_object *record_guest_pmu_json(const struct el_report *r);

/*
 * Appends one line to path: the whole line or nothing (a short write is
 * rolled back), fsync'ed.  Returns 0, or -1 after printing why.
 */
int record_append(const char *path, struct json_object *rec);

/* Default output path under results/ (directory created if needed). */
int record_default_path(const char *bench, char *buf, size_t len);

#endif
