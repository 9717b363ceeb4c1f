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

/* Options both `run` and `trace` take (getopt values beyond single letters). */
enum {
	EL_OPT_JSON = 256,
	EL_OPT_TIMEOUT,
	EL_OPT_KERNEL,
	EL_OPT_EXEC,
	EL_OPT_PRIVATE = 300, /* a command's own options start here */
};

/* The getopt_long rows of the shared options (cli_parse_shared takes them). */
#define EL_CLI_SHARED_OPTIONS                                                            \
	{"cpu", required_argument, 0, 'c'}, {"append", required_argument, 0, 'a'},        \
	{"iterations", required_argument, 0, 'n'}, {"memory", required_argument, 0, 'm'}, \
	{"output", required_argument, 0, 'o'},                                          \
	{"field-separator", required_argument, 0, 'x'},                                 \
	{"json", no_argument, 0, EL_OPT_JSON}, {"timeout", required_argument, 0, EL_OPT_TIMEOUT}, \
	{"verbose", no_argument, 0, 'v'}, {"kernel", required_argument, 0, EL_OPT_KERNEL}, \
	{"exec", required_argument, 0, EL_OPT_EXEC}, {"help", no_argument, 0, 'h'}

#define EL_MIN_MEMORY (16ull << 20)
#define EL_MAX_MEMORY (64ull << 30)

/* "entrylab CMD: <problem>; <fix>" on stderr; returns EL_EXIT_USAGE. */
int cli_bad(const char *cmd, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A shared option: 0 taken, EL_EXIT_USAGE bad value (printed), -1 not a shared option. */
int cli_parse_shared(const char *cmd, int opt, const char *arg, struct el_cli_run *cli);
/* After parsing: cross-option checks, --cpu and --append validated, spec filled. */
int cli_finish(const char *cmd, struct el_cli_run *cli);

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
