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
#include "opt_table.h"
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

/*
 * The rows of the options run and trace share (opt_table.h): one place for
 * what each does, the help text where both commands say the same.  Their
 * targets are fields of struct el_cli_run (trace's table works on the
 * el_cli_trace that begins with one).
 */
#define EL_CLI_AT(field) .off = offsetof(struct el_cli_run, field)
#define EL_CLI_ROW_CPU(h) \
	{.short_name = 'c', .long_name = "cpu", .arg = "SPEC", .help = (h), \
	 .kind = EL_OPT_STRING, EL_CLI_AT(req.cpu_spec)}
#define EL_CLI_ROW_APPEND \
	{.short_name = 'a', .long_name = "append", .arg = "ARGS", \
	 .help = "guest kernel command line (entrylab list knobs)", .kind = EL_OPT_STRING, \
	 EL_CLI_AT(req.append)}
/* -n; its help ends with EL_CLI_HELP_DIVISOR, -n's second meaning */
#define EL_CLI_ROW_ITERATIONS(h) \
	{.short_name = 'n', .long_name = "iterations", .arg = "N", .help = (h), \
	 .kind = EL_OPT_U64, EL_CLI_AT(req.iterations), .min = 1, .max = UINT64_MAX, \
	 .bad = "--iterations '%s' is not a positive integer", .fix = "give a count such as -n 100000"}
#define EL_CLI_HELP_DIVISOR \
	"With --exec or --region whole: how many iterations the\n" \
	"program runs, for per-iteration figures (it is not told);\n" \
	"without -n a whole region gives totals"
#define EL_CLI_ROW_MEMORY \
	{.short_name = 'm', .long_name = "memory", .arg = "SIZE", \
	 .help = "guest memory, e.g. 256M (default 256M)", .kind = EL_OPT_CALL, .fn = cli_opt_memory}
#define EL_CLI_ROW_OUTPUT(h) \
	{.short_name = 'o', .long_name = "output", .arg = "FILE", .help = (h), \
	 .kind = EL_OPT_STRING, EL_CLI_AT(output)}
#define EL_CLI_ROW_CSV(h) \
	{.short_name = 'x', .long_name = "field-separator", .arg = "SEP", .help = (h), \
	 .synopsis = "-x SEP", .kind = EL_OPT_STRING, EL_CLI_AT(csv_sep)}
#define EL_CLI_ROW_JSON(h) \
	{.long_name = "json", .help = (h), .kind = EL_OPT_TRUE, EL_CLI_AT(json)}
/* --timeout; cli_parsed() marks it given */
#define EL_CLI_ROW_TIMEOUT(h, dflt) \
	{.long_name = "timeout", .arg = "SEC", .help = (h), .num = (dflt), \
	 .kind = EL_OPT_SECONDS, EL_CLI_AT(req.timeout_s), .max = 86400, \
	 .bad = "--timeout '%s' is not a number of seconds in (0, 86400]", \
	 .fix = "give e.g. --timeout 30"}
#define EL_CLI_ROW_GUEST \
	{.long_name = "guest", .arg = "KIND", \
	 .help = "entrylab (our kernel, default) or linux: a Linux kernel\n" \
		 "with our /init runs the same program (docs/linux-guest.md)", \
	 .kind = EL_OPT_CALL, .fn = cli_opt_guest}
#define EL_CLI_ROW_REGION \
	{.long_name = "region", .arg = "R", \
	 .help = "marked: what the program's markers bracket; whole: the\n" \
		 "whole program, from exec to its exit, children included\n" \
		 "(as perf stat counts a command).  Default: marked when\n" \
		 "the program has markers (<entrylab/marker.h>), else whole", \
	 .kind = EL_OPT_CALL, .fn = cli_opt_region}
#define EL_CLI_ROW_FILE \
	{.long_name = "file", .arg = "HOST[=GUEST]", \
	 .help = "pack a host file, or a directory's tree (links kept),\n" \
		 "into the guest at GUEST (absolute; default /NAME),\n" \
		 "modes kept, for the program to open or execve; repeatable", \
	 .kind = EL_OPT_CALL, .fn = cli_opt_file}
#define EL_CLI_ROW_KERNEL \
	{.long_name = "kernel", .arg = "FILE", \
	 .help = "the kernel to boot: ours by default; with --guest linux\n" \
		 "an ELF vmlinux or bzImage (default: Debian's, as fetched\n" \
		 "for the nested runner)", \
	 .kind = EL_OPT_STRING, EL_CLI_AT(req.kernel)}
/* --exec FILE: what follows belongs to the program, options included */
#define EL_CLI_ROW_EXEC \
	{.long_name = "exec", .arg = "FILE", .kind = EL_OPT_STRING, EL_CLI_AT(req.exec), .stop = true}
#define EL_CLI_ROW_VERBOSE \
	{.short_name = 'v', .long_name = "verbose", .synopsis = "-v", \
	 .help = "guest console on stderr (control bytes as \\xHH)", .kind = EL_OPT_TRUE, \
	 EL_CLI_AT(req.verbose)}
#define EL_CLI_ROW_HELP {.short_name = 'h', .long_name = "help", .kind = EL_OPT_HELP}

/* The shared rows' handlers (cli_common.c): 0, or EL_EXIT_USAGE after saying why. */
int cli_opt_memory(void *cli, const char *arg, struct el_opt_state *st);
int cli_opt_guest(void *cli, const char *arg, struct el_opt_state *st);
int cli_opt_region(void *cli, const char *arg, struct el_opt_state *st);
int cli_opt_file(void *cli, const char *arg, struct el_opt_state *st);
/* --engine kvm|bochs of run and engine: bochs set, or EL_EXIT_USAGE after saying why. */
int cli_engine_word(const char *cmd, const char *arg, bool *bochs);
/*
 * After run's or trace's table: --timeout marked given, the benchmark and
 * its arguments taken from argv[optind...] (none with --exec).
 */
void cli_parsed(const struct el_opt_state *st, struct el_cli_run *cli);

/* The shared limits, one paragraph after the options of run and trace. */
void cli_limits_help(FILE *f);
/* "entrylab CMD: <problem>; <fix>" on stderr; returns EL_EXIT_USAGE. */
int cli_bad(const char *cmd, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
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
