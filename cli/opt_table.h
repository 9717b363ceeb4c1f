/*
 * A command's options, once: one row per option (short and long name, the
 * argument's name, the help text, and what the option does) from which
 * el_opt_parse() builds getopt_long's option array and short-option string
 * and el_opt_help() prints the option lines of --help.  A row does its
 * work through a typed target (a field of the command's options struct,
 * named by its offset) or a handler function.
 */
#ifndef EL_OPT_TABLE_H
#define EL_OPT_TABLE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a row does with its option. */
enum el_opt_kind {
	EL_OPT_CALL,    /* fn(obj, arg, st) */
	EL_OPT_STRING,  /* const char * at off = the argument */
	EL_OPT_TRUE,    /* bool at off = true */
	EL_OPT_SET,     /* int (or enum) at off = val */
	EL_OPT_U64,     /* uint64_t at off: the argument, an integer in min..max */
	EL_OPT_UINT,    /* unsigned at off: likewise */
	EL_OPT_INT,     /* int at off: likewise */
	EL_OPT_SECONDS, /* double at off: a number of seconds in (0, max] */
	EL_OPT_REFUSE,  /* not taken here: bad (its %s the long name) and fix */
	EL_OPT_HELP,    /* --help: the table's usage on stdout, then exit 0 (or see help_returns) */
};

struct el_opt_state;

struct el_opt {
	char short_name;       /* 0: long only */
	const char *long_name; /* NULL: short only, or a help line of its own (no option) */
	const char *arg;       /* the argument's name in --help; NULL: the option takes none */
	/*
	 * --help's text, its lines after the first indented to the column;
	 * "%.0f" in it is num.  NULL: not listed (internal, refused, or named
	 * in another row's line).
	 */
	const char *help;
	const char *synopsis;  /* the left column instead of "-s, --long ARG" */
	enum el_opt_kind kind;
	size_t off;            /* the target's offset in the options struct */
	int64_t val;           /* EL_OPT_SET's value */
	uint64_t min, max;     /* the numbers' range (EL_OPT_SECONDS: max) */
	double num;            /* "%.0f" in help */
	/* A bad value or a refused option: "entrylab CMD: <bad, %s the argument>; <fix>". */
	const char *bad, *fix;
	int (*fn)(void *obj, const char *arg, struct el_opt_state *st);
	bool stop;             /* the options end after this one (the rest is the program's) */
	bool internal;         /* the program passes it to itself: never in --help */
};

struct el_opt_table {
	const char *cmd;          /* "run": messages begin "entrylab run: " */
	const struct el_opt *opts;
	size_t n;
	bool in_order;            /* stop at the first word that is not an option ('+') */
	unsigned col, gap;        /* --help: the text's column; at least gap spaces before it */
	void (*usage)(FILE *f);   /* the whole --help (calls el_opt_help for the option lines) */
	bool help_returns;        /* --help: el_opt_parse returns EL_OPT_HELP_SHOWN (else exit 0) */
	/*
	 * An unknown option or a missing argument: NULL, getopt says which and
	 * usage goes to stderr; else refuse says it (getopt quiet) and returns
	 * the exit status.
	 */
	int (*refuse)(void *obj, struct el_opt_state *st);
};

/* One parse: what handlers may look at (the words, which rows were seen). */
struct el_opt_state {
	const struct el_opt_table *t;
	int argc;
	char **argv;
	uint64_t seen; /* bit i: opts[i] given */
};

#define EL_OPT_HELP_SHOWN (-1)
#define EL_OPT_MAX 64 /* rows in a table (bits of el_opt_state.seen) */
#define EL_OPT_TABLE(c, rows) .cmd = (c), .opts = (rows), .n = sizeof(rows) / sizeof((rows)[0])

/*
 * getopt_long over argv with the table's options, each row's work done on
 * obj; optind is left at the first word that is not an option.  0, an
 * EL_EXIT_* status after saying why, or (--help, with help_returns)
 * EL_OPT_HELP_SHOWN.
 */
int el_opt_parse(const struct el_opt_table *t, int argc, char **argv, void *obj,
		 struct el_opt_state *st);
/* Was the row of this long name (or, long NULL, short name) given? */
bool el_opt_seen(const struct el_opt_state *st, char short_name, const char *long_name);
/* The option lines of --help, in the table's order. */
void el_opt_help(FILE *f, const struct el_opt_table *t);
/*
 * getopt_long's array (up to EL_OPT_MAX + 1 rows, the last zero; rows[i] the
 * table row of longopts[i]) and short string ("+c:h", up to 3 * EL_OPT_MAX + 2
 * bytes).  A row's getopt value is its short name, else 256 + the first row
 * that does the same (so, as getopt expects, an abbreviation matching only
 * such rows is not ambiguous).  The number of long options, or -1: the
 * table is longer than EL_OPT_MAX.
 */
int el_opt_build(const struct el_opt_table *t, struct option *longopts, int *rows,
		 char *shortopts, size_t shortlen);
/* "entrylab CMD: <what, each %s the argument>; <fix>" on stderr; returns EL_EXIT_USAGE. */
int el_opt_bad(const char *cmd, const char *what, const char *arg, const char *fix);

#endif
