/*
 * Linux-style command-line parsing (`key=value`, bare flags, whitespace
 * separated, "double quotes" around values allowed).
 *
 * Pure, freestanding C with no library calls: the guest kernel uses it at
 * boot, and the VMM compiles the same file to validate `--append` before it
 * boots anything.
 */
#ifndef EL_CMDLINE_H
#define EL_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

#include "entrylab/knobs.h"

enum el_cmdline_error {
	EL_CMDLINE_UNKNOWN_KNOB = 1, /* key is no knob we know */
	EL_CMDLINE_BAD_VALUE,        /* key known, value not one of its values */
	EL_CMDLINE_MISSING_VALUE,    /* `pti` without `=value` */
	EL_CMDLINE_UNEXPECTED_VALUE, /* `nopti=1` */
	EL_CMDLINE_TOO_LONG,         /* value does not fit its buffer */
};

/* Crash hooks for tests of the VMM's error paths (test.crash=). */
enum el_test_crash {
	EL_CRASH_NONE = 0,
	EL_CRASH_TRIPLE, /* load an empty IDT and fault: triple fault */
	EL_CRASH_HANG,   /* spin with interrupts off */
	EL_CRASH_UD,     /* ud2 in the kernel: exception report and panic exit */
	EL_CRASH_BADPORT,/* OUT to a port nobody handles */
	EL_CRASH_SYSENTER, /* SYSENTER with IA32_SYSENTER_CS 0 */
	EL_CRASH_ICEBP,    /* ICEBP (INT1, 0xf1) */
	EL_CRASH_BADIDT,   /* INT 0x80 through an IDT of garbage */
	EL_CRASH_MMIO_EXEC,/* a jump to physical memory with no RAM and no device (MMIO) */
	EL_CRASH_REPORT_BACKWARDS, /* markers, then a RUN report whose region ends before it begins */
	EL_CRASH_REPORT_UNMARKED,  /* a RUN report with a region but no markers sent */
	EL_CRASH_REPORT_BOOT_TWICE,/* the BOOT report a second time */
};

struct el_cmdline {
	uint8_t requested[EL_CFG_COUNT]; /* defaults unless given */
	uint8_t given[EL_CFG_COUNT];     /* 1 if the command line set the item */
	char init[128];                  /* init=PATH, "" if not given */
	char argv0[128];                 /* el.argv0=NAME: init's argv[0]; "": its path, as Linux */
	uint8_t test_crash;              /* enum el_test_crash */
	uint64_t tsc_khz;                /* el.tsc_khz=N from the VMM, 0 if absent */
	uint64_t epoch_ns;               /* el.epoch_ns=N: unix time (ns) at VM start, 0 if absent */
	/* el.events=CFG,CFG,... from the VMM (abi.h, "Events"), in request order. */
	uint64_t events[EL_MAX_COUNTERS];
	uint8_t nr_events;
	/* el.region=marked|whole from the VMM: enum el_region_scope (abi.h), MARKED if absent. */
	uint8_t region_scope;
	/*
	 * What follows a standalone `--`: init's arguments (argv[1..]), as on
	 * Linux.  Points into the parsed string; NULL when there is no `--`.
	 */
	const char *init_args;
};

/*
 * Called once per problem with the offending key and value (not
 * NUL-terminated; value NULL when absent).
 */
typedef void el_cmdline_error_fn(void *ctx, enum el_cmdline_error err, const char *key,
				 size_t keylen, const char *value, size_t valuelen);

/* Fills *out (defaults first); returns the number of problems reported. */
int el_cmdline_parse(const char *cmdline, struct el_cmdline *out, el_cmdline_error_fn *err,
		     void *ctx);

/*
 * Splits init_args into arguments: at *p, skips whitespace and copies the
 * next argument into out (NUL-terminated; double quotes group whitespace and
 * are removed), advancing *p.  Returns its length, -1 when there is none
 * left, -2 when it does not fit outlen (it is skipped).
 */
long el_cmdline_next_arg(const char **p, char *out, size_t outlen);

/*
 * One token of a command line, as both worlds split it: the guest kernel's
 * parser and the VMM's --append check call el_cmdline_split and nothing else,
 * so a line the host accepts is, token for token, the line the guest sees.
 */
struct el_cmdline_token {
	const char *raw;    /* the token as written, quotes included */
	size_t rawlen;
	const char *key;    /* quotes removed */
	size_t keylen;
	const char *value;  /* after the first '=', quotes removed; NULL without '=' */
	size_t valuelen;
	int open_quote;     /* a '"' that nothing closes: the token ran to the end of the line */
};

/*
 * Skips whitespace (space, \t, \n, \r, \v, \f) at *p and splits off the next
 * token, advancing *p past it.  Returns 1 for a token, 0 at the end of the
 * line (a NUL).  Empty tokens (a lone `""`) are skipped, but not a lone
 * `"` that opens a quote (open_quote set, keylen 0).
 */
int el_cmdline_split(const char **p, struct el_cmdline_token *t);

/* Is the token a standalone `--` (the rest of the line is init's)? */
int el_cmdline_is_separator(const struct el_cmdline_token *t);

/* Problems of a user's part of the line that the VMM must own or append to. */
enum el_cmdline_user_error {
	EL_CMDLINE_USER_VMM_KNOB = 1, /* an el.* knob: entrylab sets those itself */
	EL_CMDLINE_USER_OPEN_QUOTE,   /* would swallow the knobs the VMM appends */
	EL_CMDLINE_USER_SEPARATOR,    /* `--` would turn the VMM's knobs into init's arguments */
};

typedef void el_cmdline_user_fn(void *ctx, enum el_cmdline_user_error err,
				const struct el_cmdline_token *t);

/*
 * Checks a user's command line (--append) for what only the VMM may write,
 * token by token with el_cmdline_split; calls fn (may be NULL) per problem
 * and returns their number.
 */
int el_cmdline_check_user(const char *cmdline, el_cmdline_user_fn *fn, void *ctx);

/* Knob names that are not config knobs, for messages ("init", "test.crash", ...). */
extern const char *const el_cmdline_other_knobs[];

#endif
