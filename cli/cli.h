/*
 * Command-line front end: the options of `entrylab run` (and of the
 * subcommands that share them), parsed and validated before anything boots.
 * The options become a run request (record/request.h) plus what only the
 * terminal cares about (output file and format, nested mode).
 */
#ifndef EL_CLI_H
#define EL_CLI_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nested.h"
#include "program.h"
#include "request.h"
#include "run.h"
#include "trace.h"


struct el_cli_run {
	struct el_run_request req; /* what to run */
	struct el_run_spec spec;   /* req finished (request_finish) and its programs */
	struct el_programs prog;   /* the programs to boot, owned here (cli_free) */
	const char *output;        /* --output, NULL = under results/ */
	const char *csv_sep;       /* -x SEP, NULL = table */
	bool json;                 /* --json */
	enum el_nested_mode nested;
	bool nested_cold;          /* --no-warm: the nested runner boots a VM for this command alone */
	bool bochs;                /* --engine bochs */
	const char *cpu_model;     /* --cpu-model (Bochs's), NULL = none */
	bool dry_run;              /* run --dry-run: checked, what would boot shown, nothing booted */
	struct el_file files[EL_FILES_MAX]; /* --file, in order (req.files points here) */
};

struct el_cli_trace {
	struct el_cli_run run;     /* the options trace shares with run, and the program */
	struct el_trace_opts opts; /* --listing, --qemu, --top */
};

/* Options both `run` and `trace` take (getopt values beyond single letters). */
enum {
	EL_OPT_JSON = 256,
	EL_OPT_TIMEOUT,
	EL_OPT_KERNEL,
	EL_OPT_EXEC,
	EL_OPT_GUEST,
	EL_OPT_REGION,
	EL_OPT_FILE,
	EL_OPT_PRIVATE = 300, /* a command's own options start here */
};

/* The getopt_long rows of the shared options (cli_parse_shared handles them). */
#define EL_CLI_SHARED_OPTIONS                                                            \
	{"cpu", required_argument, 0, 'c'}, {"append", required_argument, 0, 'a'},        \
	{"iterations", required_argument, 0, 'n'}, {"memory", required_argument, 0, 'm'}, \
	{"output", required_argument, 0, 'o'},                                          \
	{"field-separator", required_argument, 0, 'x'},                                 \
	{"json", no_argument, 0, EL_OPT_JSON}, {"timeout", required_argument, 0, EL_OPT_TIMEOUT}, \
	{"verbose", no_argument, 0, 'v'}, {"kernel", required_argument, 0, EL_OPT_KERNEL}, \
	{"exec", required_argument, 0, EL_OPT_EXEC}, {"guest", required_argument, 0, EL_OPT_GUEST}, \
	{"region", required_argument, 0, EL_OPT_REGION}, \
	{"file", required_argument, 0, EL_OPT_FILE}, \
	{"help", no_argument, 0, 'h'}

/* The help lines of --file, for run and trace alike. */
#define EL_CLI_HELP_FILE                                                                   \
	"      --file HOST[=GUEST]  pack a host file, or a directory's tree (links kept),\n" \
	"                        into the guest at GUEST (absolute; default /NAME),\n"       \
	"                        modes kept, for the program to open or execve; repeatable\n"
/* The help lines of --region and of -n's second meaning, for run and trace alike. */
#define EL_CLI_HELP_REGION                                                                 \
	"      --region R        marked: what the program's markers bracket; whole: the\n"    \
	"                        whole program, from exec to its exit, children included\n" \
	"                        (as perf stat counts a command).  Default: marked when\n"  \
	"                        the program has markers (<entrylab/marker.h>), else whole\n"
#define EL_CLI_HELP_DIVISOR                                                                \
	"                        With --exec or --region whole: how many iterations the\n"  \
	"                        program runs, for per-iteration figures (it is not told);\n" \
	"                        without -n a whole region gives totals\n"

/* The shared limits, one paragraph after the options of run and trace. */
void cli_limits_help(FILE *f);
/* "entrylab CMD: <problem>; <fix>" on stderr; returns EL_EXIT_USAGE. */
int cli_bad(const char *cmd, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A shared option: 0 taken, EL_EXIT_USAGE bad value (printed), -1 not a shared option. */
int cli_parse_shared(const char *cmd, int opt, const char *arg, struct el_cli_run *cli);
/* After parsing: cross-option checks, the request finished into the spec. 0 or EL_EXIT_*. */
int cli_finish(const char *cmd, struct el_cli_run *cli);
/* The request's programs prepared (read, checked, packed); 0 or EL_EXIT_* after printing why. */
int cli_prepare(const char *cmd, struct el_cli_run *cli);
/*
 * The boot's timeout once the programs are prepared: without --timeout it
 * follows from the work asked for (request_estimate_timeout, at least
 * EL_DEFAULT_TIMEOUT); a --timeout shorter than the estimate is refused
 * before anything boots, with the timeout that would do.  0 or EL_EXIT_USAGE.
 */
int cli_timeout(const char *cmd, struct el_cli_run *cli, bool nested);
/* Releases the programs (after any of the above, whatever they returned). */
void cli_free(struct el_cli_run *cli);

/*
 * --engine and --cpu-model against the other options (cli_run.c): the
 * model named and known, nothing Bochs cannot give (--cpu, -e, --pin,
 * --nested).  0, or EL_EXIT_USAGE after printing the problem and the fix.
 */
int cli_engine_check(const char *cmd, const struct el_cli_run *cli, bool cpu_given,
		     bool pin_given);

/* Parses `run` options; 0, or an EL_EXIT_* code after printing why. */
int cli_run_parse(int argc, char **argv, struct el_cli_run *cli);
/* Parses `trace` options; 0, or an EL_EXIT_* code after printing why. */
int cli_trace_parse(int argc, char **argv, struct el_cli_trace *t);

#endif
