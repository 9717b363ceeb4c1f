/*
 * Command-line front end: the options of `entrylab run` (and of the
 * subcommands that share them), parsed and validated before anything boots.
 */
#ifndef EL_CLI_H
#define EL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "run.h"

enum el_nested_mode { EL_NESTED_AUTO, EL_NESTED_FORCE, EL_NESTED_FORBID };

struct el_cli_run {
	const char *cpu_spec;   /* --cpu, "host" by default */
	const char *append;     /* --append, "" by default */
	uint64_t iterations;    /* --iterations, 0 = the benchmark's default */
	const char *events;     /* --events as given, NULL if none */
	struct el_event_list ev; /* --events parsed (spec.events: resolved for this CPU) */
	unsigned repeat;        /* --repeat */
	uint64_t mem_bytes;     /* --memory */
	const char *output;     /* --output, NULL = under results/ */
	const char *csv_sep;    /* -x SEP, NULL = table */
	bool json;              /* --json */
	double timeout_s;       /* --timeout */
	int pin_cpu;            /* --pin, -1 = none */
	enum el_nested_mode nested;
	bool verbose;           /* -v */
	bool strict;            /* --strict */
	const char *kernel;     /* --kernel FILE: another guest kernel image (development) */
	const char *exec;       /* --exec FILE */
	const char *bench;      /* BENCH, NULL = boot only */
	char **args;            /* benchmark arguments */
	int nargs;
	struct el_run_spec spec; /* filled from the above */
};

/* Parses `run` options; returns 0, or an EL_EXIT_* code after printing why. */
int cli_run_parse(int argc, char **argv, struct el_cli_run *cli);

/* "256M", "1G", "1048576" -> bytes; -1 on syntax error or overflow. */
int cli_parse_size(const char *s, uint64_t *out);
/* Decimal integer in [min, max]; -1 otherwise. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Validates a guest command line with the guest's own parser; prints one
 * message per problem, naming the knob and the accepted values.  Returns
 * the number of problems.
 */
int cli_check_append(const char *append);

#endif
