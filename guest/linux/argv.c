/* The program's arguments out of EL_LINUX_ARGV. */
#include "argv.h"

#include <stdio.h>
#include <string.h>

int linit_argv_split(char *buf, size_t len, const char *argv0, char **argv, int max, char *err,
		     size_t errlen)
{
	size_t at = 0;
	int argc = 1;

	if (max < 2) {
		snprintf(err, errlen, "no room for argv");
		return -1;
	}
	argv[0] = (char *)argv0;
	if (len && buf[len - 1] != '\0') {
		snprintf(err, errlen, "argv: the last argument has no NUL (the file is cut)");
		return -1;
	}
	while (at < len) {
		if (argc == max - 1) {
			snprintf(err, errlen, "argv: more than %d arguments", max - 2);
			return -1;
		}
		argv[argc++] = buf + at;
		at += strlen(buf + at) + 1;
	}
	argv[argc] = NULL;
	return argc;
}
