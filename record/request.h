/*
 * A run request: what the user asked of one run, as options or an
 * experiment variant give it, before anything is resolved.  The CLI and the
 * matrix build one; request_finish() checks it and turns it into the VMM's
 * spec; request_programs() prepares its programs; the record is built from
 * the request, the spec, the host facts and the result.
 */
#ifndef EL_REQUEST_H
#define EL_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "el_limits.h"
#include "events.h"
#include "program.h"
#include "run.h"

#define EL_DEFAULT_MEMORY (256ull << 20)
#define EL_DEFAULT_TIMEOUT 120.0

struct el_run_request {
	const char *cpu_spec;    /* --cpu, "host" by default */
	const char *append;      /* --append, "" by default */
	uint64_t iterations;     /* -n; after request_programs: what the bench declares, in its unit */
	const char *events;      /* -e as given, NULL if none */
	struct el_event_list ev; /* -e parsed (request_finish) */
	unsigned repeat;         /* -r */
	uint64_t mem_bytes;      /* -m */
	double timeout_s;        /* --timeout; 0 = none */
	bool timeout_given;      /* by the user (--timeout, a file's timeout): not derived */
	int pin_cpu;             /* --pin; -1 = none */
	bool verbose;            /* -v */
	bool strict;             /* --strict */
	enum el_guest_kind guest; /* --guest */
	const char *kernel;      /* --kernel FILE */
	enum el_region_scope region; /* --region; EL_REGION_SCOPE_NONE: decided from the program */
	const char *exec;        /* --exec FILE */
	const char *bench;       /* BENCH; NULL (and no exec) = boot only */
	char **args;             /* the program's arguments (effective after request_programs) */
	int nargs;
	struct el_file *files;   /* --file (vmm/files.h), the caller's; bytes: request_programs */
	unsigned nr_files;
};

/* The defaults of `entrylab run`. */
void request_init(struct el_run_request *r);

/*
 * Checks --cpu, --append and -e and fills spec from the request (CPU
 * policy, command line, memory, timeout, pinning, events for this CPU).
 * 0, or EL_EXIT_USAGE after printing "entrylab CMD: problem; fix".
 */
int request_finish(const char *cmd, struct el_run_request *r, struct el_run_spec *spec);

/*
 * Prepares r's programs into p (owned by the caller; programs_free() it
 * in any case), points spec at them, and makes r's arguments and
 * iterations the effective ones.  0, or an EL_EXIT_* code after printing why.
 */
int request_programs(const char *cmd, struct el_run_request *r, struct el_programs *p,
		     struct el_run_spec *spec);

/*
 * What one boot of r should take (request_estimate.c): boot plus iterations
 * times a per-iteration cost of the benchmark, natively or in the nested
 * runner.  An estimate for timeouts and --dry-run, never a measurement.
 */
struct el_estimate {
	bool known;          /* a built-in benchmark with a cost and a count */
	uint64_t iterations; /* in unit */
	const char *unit;
	double per_iter_ns, boot_s;
	double run_s;        /* boot_s + iterations * per_iter_ns */
};
void request_estimate(const struct el_run_request *r, bool nested, struct el_estimate *e);
/*
 * The --timeout a boot gets when nobody gave one: EL_DEFAULT_TIMEOUT, or
 * 5 x the estimate + 60 s (rounded up to 10 s) when that is longer.
 */
double request_estimate_timeout(const struct el_estimate *e);

/*
 * Validates a guest command line with the guest's own parser; prints one
 * message per problem, naming the knob and the accepted values.  Returns
 * the number of problems.
 */
int request_check_append(const char *append);

#endif
