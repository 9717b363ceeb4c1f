/*
 * EL_LINUX_ARGV (include/entrylab/linux_init.h): the program's argv[1..],
 * each string NUL-terminated.  Pure: the host unit tests compile it.
 */
#ifndef LINIT_ARGV_H
#define LINIT_ARGV_H

#include <stddef.h>

/* The most arguments /init passes on (the host allows fewer). */
#define LINIT_ARGS_MAX 256

/*
 * Points argv[1..] at the strings of buf[0..len) and argv[0] at argv0;
 * argv ends with NULL (argv has room for max entries, NULL included).
 * Returns argc, or -1 with err: the last string has no NUL, or there are
 * more than max - 2.
 */
int linit_argv_split(char *buf, size_t len, const char *argv0, char **argv, int max, char *err,
		     size_t errlen);

#endif
